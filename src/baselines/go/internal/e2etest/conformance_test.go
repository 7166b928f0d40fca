package e2etest_test

import (
	"os"
	"strings"
	"testing"

	"ingest/internal/e2etest"
)

// ConformanceVariable names the implementations TestConformance checks, one a line (or separated by ";"), each
// NAME=FRONTEND[,BACKEND][ FRONT-END FLAGS]: conformance.sh and test.sh set it.
const ConformanceVariable = "INGEST_CONFORMANCE"

func TestConformance(t *testing.T) {
	specs := strings.FieldsFunc(os.Getenv(ConformanceVariable), func(r rune) bool { return r == '\n' || r == ';' })
	if len(specs) == 0 {
		t.Skip(ConformanceVariable + " names no binary: run conformance.sh NAME=PATH… or test.sh")
	}
	for _, spec := range specs {
		impl, err := e2etest.ParseImplementation(spec)
		if err != nil {
			t.Fatalf("%s: %v", ConformanceVariable, err)
		}
		for _, path := range []string{impl.FrontEnd, impl.BackEnd} {
			if info, err := os.Stat(path); err != nil || info.IsDir() || info.Mode()&0o111 == 0 {
				t.Fatalf("%s: %s is not an executable file (%v)", impl.Name, path, err)
			}
		}
		t.Run(impl.Name, func(t *testing.T) { e2etest.Conformance(t, impl) })
	}
}
