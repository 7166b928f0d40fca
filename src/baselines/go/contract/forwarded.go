package contract

// ReadForwarded reads a back-end request body: a JSON array of normalised events, or a single one. It
// re-checks every event's type and required members and appends the types, in order, to types. All or
// nothing: one invalid event rejects the request.
func ReadForwarded(body []byte, types []EventType) ([]EventType, *Problem) {
	body = trimBody(body)
	if len(body) == 0 {
		return types, newProblem(EmptyBody, "The body is empty.", "")
	}
	r := jsonReader{buf: body}
	if body[0] != '[' {
		var d document
		null, err := r.readDocument(&d, forwarded)
		if err == nil {
			err = r.expectEnd()
		}
		if err != nil {
			return types, err.problem(WholeBody())
		}
		t, p := checkForwarded(&d, null, WholeBody())
		if p != nil {
			return types, p
		}
		return append(types, t), nil
	}

	// As on the front-end: JSON errors anywhere come before validation problems.
	_ = r.enter()
	r.skipWS()
	count := 0
	var invalid *Problem
	if r.peek() == ']' {
		r.leave()
	} else {
		for ; ; count++ {
			var d document
			null, err := r.readDocument(&d, forwarded)
			if err != nil {
				return types, err.problem(Item(count))
			}
			if invalid == nil {
				t, p := checkForwarded(&d, null, Item(count))
				if p != nil {
					invalid = p
				} else {
					types = append(types, t)
				}
			}
			r.skipWS()
			if c := r.peek(); c == ']' {
				r.leave()
				count++
				break
			} else if c != ',' {
				return types, r.syntax("expected ',' or ']' after an array element").problem(Item(count))
			}
			r.pos++
		}
	}
	if err := r.expectEnd(); err != nil {
		return types, err.problem(WholeBody())
	}
	if count == 0 {
		return types, newProblem(EmptyBody, "The batch holds no events.", "")
	}
	return types, invalid
}

// ForwardedEvents reads a forward body that ReadForwarded accepted into whole events, for display (the back-end's
// status page keeps the last bodies and reads them only when the page is asked for, so the hot path stays
// ReadForwarded's). Events that do not read are left out.
func ForwardedEvents(body []byte) []Event {
	body = trimBody(body)
	if len(body) == 0 {
		return nil
	}
	r := jsonReader{buf: body}
	one := func(events []Event) ([]Event, bool) {
		var d document
		null, err := r.readDocument(&d, forwarded)
		if err != nil {
			return events, false
		}
		if !null {
			if e, p := normalizeTyped(&d, WholeBody(), d.receivedAt.value); p == nil {
				events = append(events, e)
			}
		}
		return events, true
	}
	if body[0] != '[' {
		events, _ := one(nil)
		return events
	}
	_ = r.enter()
	var events []Event
	for {
		r.skipWS()
		if r.peek() == ']' {
			return events
		}
		var ok bool
		if events, ok = one(events); !ok {
			return events
		}
		r.skipWS()
		if r.peek() != ',' {
			return events
		}
		r.pos++
	}
}
