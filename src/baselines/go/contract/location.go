package contract

import (
	"strconv"
	"strings"
)

// Location is where an event sits in a request: the whole body or item Index of a batch, and whether
// the reader is inside a classic payload's inner document. Paths are only built when a problem is
// reported, so the success path makes no strings.
type Location struct {
	index int // -1: the body itself is the event
	inner bool
}

// WholeBody is the location of a body that is one event.
func WholeBody() Location { return Location{index: -1} }

// Item is the location of the index-th event of a batch (for NDJSON: of the lines that hold one).
func Item(index int) Location { return Location{index: index} }

// Inner is the same event's classic inner document ("data").
func (l Location) Inner() Location { return Location{index: l.index, inner: true} }

// Root is the JSON path of the event object itself: "$", "$[3]", "$.data" or "$[3].data".
func (l Location) Root() string {
	root := "$"
	if l.index >= 0 {
		root = "$[" + strconv.Itoa(l.index) + "]"
	}
	if l.inner {
		root += ".data"
	}
	return root
}

// Member is the JSON path of a member of the event object.
func (l Location) Member(name string) string { return l.Root() + memberSuffix(name) }

// memberSuffix renders a member name as a JSON path step: ".name" for plain names, "['odd name']"
// for names a dot notation would misread (the same rule System.Text.Json follows).
func memberSuffix(name string) string {
	if name == "" || strings.ContainsAny(name, ".'/\"[]()\t\n\r\f\b\\ \u0085\u2028\u2029") {
		return "['" + name + "']"
	}
	return "." + name
}
