package store

import (
	"strings"
	"testing"
)

// A program that opens a store without the engine's driver registered is
// told what to import, not given a driver's "unknown driver" message.
func TestMissingDriverSaysWhatToImport(t *testing.T) {
	_, err := driver("nosuch")
	if err == nil || !strings.Contains(err.Error(), "internal/store/drivers") {
		t.Fatalf("driver of an unregistered engine: %v", err)
	}
	if code := errCode("nosuch", errFake{}); code != "" {
		t.Errorf("the code of an error without a driver: %q, want none", code)
	}
}

type errFake struct{}

func (errFake) Error() string { return "fake" }
