package store

import "testing"

// The store chooses its engine's driver by the DSN alone: both engines'
// drivers are there without an import of the program's; an engine it does
// not know is an error, and errors of no driver carry no code.
func TestDrivers(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		if d, err := driver(engine); err != nil || d.Open == nil || d.Code == nil {
			t.Errorf("the %s driver: %+v %v", engine, d, err)
		}
	}
	if _, err := driver("nosuch"); err == nil {
		t.Error("a driver for an unknown engine")
	}
	if code := errCode("nosuch", errFake{}); code != "" {
		t.Errorf("the code of an error without a driver: %q, want none", code)
	}
}

type errFake struct{}

func (errFake) Error() string { return "fake" }
