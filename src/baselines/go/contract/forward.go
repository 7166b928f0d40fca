package contract

import (
	"strconv"
	"time"
)

// DataPath is where a front-end forwards to on every back-end.
const DataPath = "/ingest/data"

// BackEndAnswered is the 502 for a back-end that answered with a status other than 2xx.
func BackEndAnswered(backEnd string, status int) *Problem {
	return newProblem(BackEndFailed, "The back-end "+backEnd+" answered "+strconv.Itoa(status)+".", "")
}

// BackEndUnreachable is the 502 for a back-end that refused or reset the connection.
func BackEndUnreachable(backEnd string, err error) *Problem {
	return newProblem(BackEndFailed, "The back-end "+backEnd+" could not be reached: "+err.Error()+".", "")
}

// BackEndTimedOut is the 504 for a back-end that did not answer within the timeout.
func BackEndTimedOut(backEnd string, timeout time.Duration) *Problem {
	return newProblem(BackEndTimeout, "The back-end "+backEnd+" did not answer within "+strconv.FormatInt(timeout.Milliseconds(), 10)+" ms.", "")
}
