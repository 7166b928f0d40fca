package contract

import "strconv"

// AppendAccepted appends the front-end's answer: {"accepted":n}.
func AppendAccepted(dst []byte, n int) []byte {
	dst = append(dst, `{"accepted":`...)
	dst = strconv.AppendInt(dst, int64(n), 10)
	return append(dst, '}')
}

// AppendPersisted appends the back-end's answer: {"persisted":n}.
func AppendPersisted(dst []byte, n int) []byte {
	dst = append(dst, `{"persisted":`...)
	dst = strconv.AppendInt(dst, int64(n), 10)
	return append(dst, '}')
}

// Stats are the counts a back-end's sink has persisted since start.
type Stats struct {
	Job, Metric, Log int64
}

// Total is the sum over all types.
func (s Stats) Total() int64 { return s.Job + s.Metric + s.Log }

// AppendJSON appends {"total":N,"by_type":{"job":a,"metric":b,"log":c}}.
func (s Stats) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"total":`...)
	dst = strconv.AppendInt(dst, s.Total(), 10)
	dst = append(dst, `,"by_type":{"job":`...)
	dst = strconv.AppendInt(dst, s.Job, 10)
	dst = append(dst, `,"metric":`...)
	dst = strconv.AppendInt(dst, s.Metric, 10)
	dst = append(dst, `,"log":`...)
	dst = strconv.AppendInt(dst, s.Log, 10)
	return append(dst, `}}`...)
}
