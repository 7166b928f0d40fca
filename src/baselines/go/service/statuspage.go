package service

import (
	"bytes"
	"embed"
	"html/template"
	"sort"
	"strconv"
	"strings"

	"ingest/contract"
)

// The status page's paths: GET / and GET /status, as on the .NET services.
const (
	RootPath   = "/"
	StatusPath = "/status"
)

// Engine names the view engine on the page.
const Engine = "html/template"

// StatusPage is what a status page shows, the same model as the .NET services' (src/Ingest.Hosting/Pages/StatusPage.cs),
// rendered with the same layout, so the pages differ only in what renders them.
type StatusPage struct {
	Title           string
	Engine          string
	Configuration   []PageFact
	Counters        []PageFact
	HasRecentEvents bool
	RecentEvents    []PageEvent
}

// PageFact is one row of a table: a configuration fact or a counter.
type PageFact struct{ Name, Value string }

// PageEvent is one of the back-end's last events, as text (escaped when rendered).
type PageEvent struct{ Type, Source, Timestamp, Detail string }

//go:embed templates/*.html
var templateFiles embed.FS

var pageTemplate = template.Must(template.ParseFS(templateFiles, "templates/*.html"))

// Render writes the page's HTML into a new buffer.
func (p *StatusPage) Render() ([]byte, error) {
	var b bytes.Buffer
	b.Grow(4096)
	if err := pageTemplate.ExecuteTemplate(&b, "layout", p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// NewStatusPage starts a page for c: its title and the configuration facts of the start-up line (Describe), with
// role named as the .NET services name it. The configuration does not change: a service makes this once and starts
// each request's page from it with Page, as the .NET services read the facts once.
func NewStatusPage(c *Config) *StatusPage {
	p := &StatusPage{Title: "Ingest front-end", Engine: Engine}
	role := "FrontEnd"
	if c.Role == BackEnd {
		p.Title, role = "Ingest back-end", "BackEnd"
		p.HasRecentEvents = true
	}
	p.Configuration = append(p.Configuration, PageFact{"role", role}, PageFact{"api", c.Stack.String()})
	line := c.Describe("")
	if i := strings.Index(line, ": "); i >= 0 {
		line = line[i+2:]
	}
	for _, pair := range strings.Fields(line) {
		if name, value, ok := strings.Cut(pair, "="); ok && name != "listen" {
			p.Configuration = append(p.Configuration, PageFact{name, value})
		}
	}
	return p
}

// Page is a new page with p's title and configuration (shared, never modified) and no counters yet.
func (p *StatusPage) Page() *StatusPage {
	return &StatusPage{Title: p.Title, Engine: p.Engine, Configuration: p.Configuration, HasRecentEvents: p.HasRecentEvents}
}

// Count appends a counter.
func (p *StatusPage) Count(name string, value int64) {
	p.Counters = append(p.Counters, PageFact{name, strconv.FormatInt(value, 10)})
}

// CountSorted appends prefix+key counters for every key of m, in key order.
func (p *StatusPage) CountSorted(prefix string, m map[string]int64) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p.Count(prefix+k, m[k])
	}
}

// CountEvents appends events.job, events.metric and events.log.
func (p *StatusPage) CountEvents(s contract.Stats) {
	p.Count("events.job", s.Job)
	p.Count("events.metric", s.Metric)
	p.Count("events.log", s.Log)
}

// AddEvents lists events newest first, as the .NET back-end does.
func (p *StatusPage) AddEvents(events []contract.Event) {
	for _, e := range events {
		var detail string
		switch e.Type {
		case contract.Job:
			detail = e.JobID + " " + e.Status
		case contract.Metric:
			detail = strings.TrimRight(e.Name+" = "+strconv.FormatFloat(e.Value, 'f', -1, 64)+" "+e.Unit, " ")
		default:
			detail = e.Level + ": " + e.Message
		}
		p.RecentEvents = append(p.RecentEvents, PageEvent{
			Type:      e.Type.String(),
			Source:    e.Source,
			Timestamp: e.Timestamp.UTC().Format("2006-01-02T15:04:05.0000000Z"),
			Detail:    detail,
		})
	}
}
