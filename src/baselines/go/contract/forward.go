package contract

import (
	"strconv"
	"time"
)

// DataPath is where a front-end forwards to on every back-end.
const DataPath = "/ingest/data"

// BackEndAnswered is the 502 for a back-end that answered with a status other than 2xx, or the 503 for one
// that answered 503 (its store is down or it sheds load): the caller should retry, after the back-end's
// Retry-After (in seconds; 1 when it sent none or one that is not a number of seconds), which is passed on.
func BackEndAnswered(backEnd string, status int, retryAfter string) *Problem {
	if status == 503 {
		p := newProblem(Overloaded, "The back-end "+backEnd+" is unavailable (its store is down or it sheds load).", "")
		p.RetryAfter = 1
		if seconds, err := strconv.Atoi(retryAfter); err == nil && seconds > 1 {
			p.RetryAfter = seconds
		}
		return p
	}
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
