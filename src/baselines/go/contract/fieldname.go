package contract

// tchar marks the bytes of a token (RFC 9110 §5.6.2): letters, digits and !#$%&'*+-.^_`|~.
var tchar = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c], t[c+'a'-'A'] = true, true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return t
}()

// IsToken reports whether name is a token, as a header field name must be (RFC 9110 §5.1).
func IsToken(name []byte) bool {
	if len(name) == 0 {
		return false
	}
	for _, c := range name {
		if !tchar[c] {
			return false
		}
	}
	return true
}

// NotATokenProblem answers a header whose field name is not a token, as the .NET services do (RequestSyntax): 400
// malformed-request, the name shown with every byte outside printable ASCII as \xNN.
func NotATokenProblem(name []byte) *Problem {
	const hex = "0123456789ABCDEF"
	printable := make([]byte, 0, len(name)+8)
	for _, c := range name {
		if c >= ' ' && c < 0x7f {
			printable = append(printable, c)
		} else {
			printable = append(printable, '\\', 'x', hex[c>>4], hex[c&15])
		}
	}
	return newProblem(MalformedRequest, "The header field name '"+string(printable)+"' is not a token (RFC 9110 section 5.1).", "")
}
