package ingest

import "strconv"

// Location is where an event sits in a request: the whole body (index -1) or item Index of a batch, and
// whether inside a classic payload's inner document. Paths are only built for problems.
type Location struct {
	Index int
	Inner bool
}

// WholeBody is the location of a single-event body.
var WholeBody = Location{Index: -1}

// Item is the location of event i of a batch.
func Item(i int) Location { return Location{Index: i} }

// Root is the JSON path of the event object itself.
func (l Location) Root() string {
	path := "$"
	if l.Index >= 0 {
		path = "$[" + strconv.Itoa(l.Index) + "]"
	}
	if l.Inner {
		path += ".data"
	}
	return path
}

// Member is the path of a member of the event object.
func (l Location) Member(name string) string {
	if name == "" {
		return l.Root()
	}
	return l.Root() + "." + name
}
