package stdhttp

import (
	"net/http"

	"ingest/contract"
	"ingest/service"
)

var htmlType = []string{"text/html; charset=utf-8"}

// recorder notes the status of an answer for the counters. One per request (it escapes to the heap with the
// interface): the price of counting answers in net/http, which has no hook for it.
type recorder struct {
	http.ResponseWriter
	status int
}

func (r *recorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

func (r *recorder) code() int {
	if r.status == 0 {
		return http.StatusOK
	}
	return r.status
}

// writePage renders p (GET and HEAD only).
func writePage(w http.ResponseWriter, r *http.Request, route string, p *service.StatusPage) {
	if !allowed(w, r, route, service.ReadAllow) {
		return
	}
	body, err := p.Render()
	if err != nil {
		writeProblem(w, &contract.Problem{Kind: contract.BackEndFailed, Detail: "The status page did not render: " + err.Error()})
		return
	}
	write(w, http.StatusOK, htmlType, body)
}

func isPage(path string) bool { return path == service.RootPath || path == service.StatusPath }
