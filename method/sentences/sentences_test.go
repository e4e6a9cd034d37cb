package sentences

import (
	"testing"

	"github.com/neardup/neardup/internal/enginetest"
)

func FuzzDecode(f *testing.F) { enginetest.FuzzCodec(f, Spec) }
