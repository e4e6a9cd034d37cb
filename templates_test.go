package neardup_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/simhash"
)

// warrants is a made-up eurobond notice of one issuer: a template whose
// slots are the issuer, its guarantor and its figures.
func warrants(issuer, guarantor, amount string) string {
	return "LONDON, June 3 - " + issuer + " is issuing a " + amount + " mln dlr equity warrant eurobond due June 30, 1999 " +
		"paying an indicated coupon of 2-1/4 pct and priced at par, lead manager Harlow Securities said.\n\n" +
		"    The issue is guaranteed by " + guarantor + " and is available in denominations of 5,000 dlrs. The selling " +
		"concession is 1-1/2 pct while management and underwriting combined pays 3/4 pct. The payment date is June 30 " +
		"and listing will be in Luxembourg.\n\n    Final terms will be fixed on June 10. The warrants are exercisable from July 14 " +
		"until the bond matures, and each entitles its holder to shares at a premium to be set with the final terms. " +
		"The bonds will be issued in bearer form, and the lead manager said demand from investors in Europe and Asia " +
		"had been strong since the market for equity warrant issues reopened after the spring holidays."
}

// TestTemplateFilledWithOtherNames: two notices of one template filled
// with other names are not duplicates, in a batch and in an index, for
// each method that applies the template rules; a notice re-sent with one
// figure corrected stays a duplicate of its first sending.
func TestTemplateFilledWithOtherNames(t *testing.T) {
	day := time.Date(2024, 6, 3, 9, 0, 0, 0, time.UTC)
	docs := []neardup.Document{
		{ID: "alpha", Title: "ORVELL MARINE ISSUES WARRANT BOND", Text: warrants("Orvell Marine Kogyo", "Tessaly Trust Bank", "80"), Date: day},
		{ID: "beta", Title: "CASTELLAN FOODS ISSUES WARRANT BOND", Text: warrants("Castellan Foods Holdings", "Tessaly Trust Bank", "60"), Date: day.Add(time.Hour)},
		{ID: "alpha-again", Title: "ORVELL MARINE ISSUES WARRANT BOND", Text: warrants("Orvell Marine Kogyo", "Tessaly Trust Bank", "85"), Date: day.Add(2 * time.Hour)},
	}
	off := func(o neardup.MethodOptions) neardup.MethodOptions {
		switch o := o.(type) {
		case minhash.Options:
			o.Slots = false
			return o
		case simhash.Options:
			o.Slots = false
			return o
		}
		panic("no such method")
	}
	mh, sh := minhash.Defaults(), simhash.Defaults()
	mh.Slots, sh.Slots = true, true // --slots, on by default (docs/methods.md)
	for _, o := range []neardup.MethodOptions{mh, sh} {
		t.Run(o.Method(), func(t *testing.T) {
			labels := func(o neardup.MethodOptions) map[string]neardup.Label {
				r, err := neardup.Dedup(t.Context(), docs, neardup.Options{Method: o})
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]neardup.Label{}
				for _, p := range r.Pairs {
					got[p.A+"~"+p.B] = p.Label
				}
				return got
			}
			batch := labels(o)
			if batch["alpha~beta"] == neardup.Duplicate {
				t.Errorf("batch: the two issuers' notices are duplicates")
			}
			if batch["alpha~alpha-again"] != neardup.Duplicate {
				t.Errorf("batch: the notice re-sent is %q, want duplicate", batch["alpha~alpha-again"])
			}
			if labels(off(o))["alpha~beta"] != neardup.Duplicate {
				t.Fatalf("without --slots the two issuers' notices are not duplicates: the case tests nothing")
			}

			x, err := neardup.Open(t.Context(), filepath.Join(t.TempDir(), "x.db"), neardup.Options{Method: o})
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			for i, d := range docs {
				ms, err := x.Add(t.Context(), d)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range ms[0].Pairs {
					dup := p.Label == neardup.Duplicate
					if d.ID == "beta" && dup {
						t.Errorf("index: beta is a duplicate of %s", p.A)
					}
					if i == 2 && p.A == "alpha" && !dup {
						t.Errorf("index: the notice re-sent is %q, want duplicate", p.Label)
					}
				}
			}
		})
	}
}
