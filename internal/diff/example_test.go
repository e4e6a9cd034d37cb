package diff_test

import (
	"fmt"
	"log"
	"os"

	"github.com/neardup/neardup/internal/diff"
)

func Example() {
	d := diff.Compare("The Bank raised rates on Monday.", "the bank raised its rates on Tuesday.", diff.Options{})
	d.A.ID, d.B.ID = "wire", "site"
	fmt.Printf("A: %.0f%% shared, B: %.0f%% shared\n", 100*d.A.Overlap(), 100*d.B.Overlap())
	for _, op := range d.Ops {
		fmt.Printf("%-7s %q %q\n", op.Kind, d.A.Text[op.A.Start:op.A.End], d.B.Text[op.B.Start:op.B.End])
	}
	if err := diff.WriteText(os.Stdout, d, diff.TextOptions{}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// A: 83% shared, B: 71% shared
	// equal   "The Bank raised" "the bank raised"
	// insert  "" "its"
	// equal   "rates on" "rates on"
	// replace "Monday" "Tuesday"
	// --- wire  6 words, 83.3% shared
	// +++ site  7 words, 71.4% shared
	//
	// [-The Bank-] {+the bank+} raised {+its+} rates on [-Monday-] {+Tuesday+}.
}
