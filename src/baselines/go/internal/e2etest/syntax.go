package e2etest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"ingest/contract"
	"ingest/service"
)

// The request-syntax and half-close cases of docs/contract.md ("Methods", "Header fields", "Half-close"), on raw TCP
// sockets: no client library sends a FIN after its request, a name that is not a token or a method in lower case.

// halfClosed writes request on a new connection to baseURL, half-closes it (shutdown(SHUT_WR): the server reads EOF
// after the request) and reads the answer; ok is false when the connection ended without one. closed tells whether the
// server closed the connection after the answer (EOF or a reset within a few seconds, and nothing more sent).
func halfClosed(t testing.TB, baseURL, request string) (a Answer, ok, closed bool) {
	t.Helper()
	conn := writeRaw(t, baseURL, request)
	defer conn.Close()
	if err := conn.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		return Answer{}, false, true // closed without an answer
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("reading the answer's body: %v", err)
	}
	a = Answer{resp.StatusCode, resp.Header, body, resp.Close}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, err := r.Read(make([]byte, 1))
	var netErr net.Error
	closed = n == 0 && err != nil && !(errors.As(err, &netErr) && netErr.Timeout())
	return a, true, closed
}

// post is a raw POST of body to path with Content-Length, extra header lines (each ending in CRLF) after Host.
func post(method, path, extra, body string) string {
	return fmt.Sprintf("%s %s HTTP/1.1\r\nHost: test\r\n%sContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s",
		method, path, extra, JSON, len(body), body)
}

func chunked(path, body string) string {
	return fmt.Sprintf("POST %s HTTP/1.1\r\nHost: test\r\nContent-Type: %s\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n",
		path, JSON, len(body), body)
}

func (impl Implementation) halfCloseAfterACompleteRequest(t *testing.T) {
	backEnd := impl.back(t)
	front := impl.front(t, "-backends", backEnd)
	var want contract.Stats
	for i := 0; i < 10; i++ {
		for _, framing := range []string{"Content-Length", "chunked"} {
			event, typ := Event(i)
			request := post("POST", service.IngestEventPath, "", event)
			if framing == "chunked" {
				request = chunked(service.IngestEventPath, event)
			}
			a, ok, closed := halfClosed(t, front, request)
			if !ok {
				t.Fatalf("%s, round %d: the connection closed without an answer", framing, i)
			}
			a.Want(t, http.StatusOK, JSON, `{"accepted":1}`)
			if !closed {
				t.Fatalf("%s, round %d: the connection stayed open after the answer to a half-closed request", framing, i)
			}
			add(&want, typ, 1)
		}
	}
	if got := Stats(t, backEnd); got != want {
		t.Fatalf("back-end counted %+v; want %+v (each half-closed request persisted once)", got, want)
	}
}

func (impl Implementation) halfCloseCutsARequestShort(t *testing.T) {
	backEnd := impl.back(t)
	front := impl.front(t, "-backends", backEnd)
	full := post("POST", service.IngestEventPath, "", Classic)
	whole := chunked(service.IngestEventPath, Classic)
	cases := map[string]string{
		"a body shorter than its Content-Length": full[:len(full)-10],
		"a chunked body without its last chunk":  whole[:len(whole)-len("0\r\n\r\n")],
		"a chunk cut short":                      whole[:len(whole)-len("\r\n0\r\n\r\n")-10],
		"a head without its end":                 full[:strings.Index(full, "\r\n\r\n")+2],
	}
	for name, request := range cases {
		a, ok, _ := halfClosed(t, front, request)
		if ok && a.Status >= 200 && a.Status <= 299 {
			t.Errorf("%s: acknowledged with %d %s", name, a.Status, a.Body)
		}
	}
	time.Sleep(100 * time.Millisecond) // a forward that went out anyway would have landed
	if got := Stats(t, backEnd); got.Total() != 0 {
		t.Fatalf("requests cut short reached the sink: %+v", got)
	}
}

// nonTokenNames are header field names that are not tokens (RFC 9110 §5.1): every separator, DEL and bytes ≥ 0x80.
func nonTokenNames() []string {
	names := []string{"X-Bad<Name>\x7f", "X-Bad\x7f", "X-Bad\x80", "X-Bad\xff", "\xc3\xa9t\xc3\xa9"}
	for _, c := range `"(),/;<=>?@[\]{}` {
		names = append(names, "X-Bad"+string(c))
	}
	return names
}

func (impl Implementation) nonTokenFieldNamesAre400(t *testing.T) {
	backEnd := impl.back(t)
	front := impl.front(t, "-backends", backEnd)
	for _, target := range []struct{ base, path string }{{front, service.IngestEventPath}, {backEnd, contract.DataPath}} {
		for _, name := range nonTokenNames() {
			a := RawRequest(t, target.base, post("POST", target.path, name+": v\r\n", Classic))
			if a.Status != http.StatusBadRequest {
				t.Errorf("POST %s with the header name %q: %d %s; want 400", target.path, name, a.Status, a.Body)
			}
		}
	}
	if got := Stats(t, backEnd); got.Total() != 0 {
		t.Fatalf("requests with a name that is not a token reached the sink: %+v", got)
	}
}

// caseVariants are the known methods in lower case and with only a capital initial.
func caseVariants() []string {
	var methods []string
	for _, m := range []string{"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"} {
		methods = append(methods, strings.ToLower(m), m[:1]+strings.ToLower(m[1:]))
	}
	return methods
}

func (impl Implementation) methodsAreCaseSensitive(t *testing.T) {
	backEnd := impl.back(t)
	front := impl.front(t, "-backends", backEnd)
	for _, method := range caseVariants() {
		for _, target := range []struct{ base, path string }{{front, service.IngestEventPath}, {backEnd, contract.DataPath}} {
			a := RawRequest(t, target.base, post(method, target.path, "", Classic))
			if a.Status != http.StatusMethodNotAllowed || a.Header.Get("Allow") != service.WriteAllow {
				t.Errorf("%s %s: %d, Allow %q, %s; want 405, Allow %q", method, target.path, a.Status, a.Header.Get("Allow"), a.Body, service.WriteAllow)
			}
		}
		if a := RawRequest(t, front, post(method, "/nowhere", "", Classic)); a.Status != http.StatusNotFound {
			t.Errorf("%s /nowhere: %d %s; want 404", method, a.Status, a.Body)
		}
	}
	if got := Stats(t, backEnd); got.Total() != 0 {
		t.Fatalf("methods in another case were served: %+v", got)
	}
}
