// Command compare measures main-text engines on gold folders: for each
// engine it scores the engine alone (its own text, no cleaning, no rules)
// and with package extract's fixes, and prints one table row per dataset,
// engine and mode. It is the measurement behind the choice of engine.
//
//	cd lab && go run ./cmd/extractcompare -ids dragnet=../../shared/data/dragnet/test.txt \
//	    -engines readeck,trafilatura /tmp/data/dragnet /tmp/data/cleaneval
//
// Each DIR is a folder laid out as input/ beside GoldStandard/ (or a folder
// of such folders); its base name names the dataset.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/lab/internal/engines"
	"github.com/neardup/neardup/lab/internal/extracteval"
)

func main() {
	ids := flag.String("ids", "", "restrict a dataset to a split: NAME=FILE[,NAME=FILE…]")
	names := flag.String("engines", strings.Join(engines.Names(), ","), "engines to compare")
	modes := flag.String("modes", "lib,fixed", "lib (engine alone), fixed (with extract's fixes), or both")
	workers := flag.Int("j", 0, "pages extracted at once (0: GOMAXPROCS)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *ids, *names, *modes, *workers, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, ids, names, modes string, workers int, dirs []string) error {
	if len(dirs) == 0 {
		return fmt.Errorf("no dataset folder given")
	}
	splits, err := readSplits(ids)
	if err != nil {
		return err
	}
	var results []extracteval.Result
	for _, dir := range dirs {
		name := filepath.Base(filepath.Clean(dir))
		ds, err := extracteval.Open(dir, extracteval.OpenOptions{IDs: splits[name]})
		if err != nil {
			return err
		}
		for _, en := range strings.Split(names, ",") {
			eng, err := engines.Lookup(en)
			if err != nil {
				return err
			}
			for _, mode := range strings.Split(modes, ",") {
				sys := system(en, eng, mode == "lib")
				r, err := extracteval.Evaluate(ctx, ds, sys, workers)
				if err != nil {
					return err
				}
				extracteval.WriteTable(os.Stderr, []extracteval.Result{r}, nil)
				results = append(results, r)
			}
		}
	}
	return extracteval.WriteTable(os.Stdout, results, nil)
}

// system wraps an engine as a scored system. Short pages are not skipped:
// the gold sets grade every page.
func system(name string, eng extract.Engine, libraryOnly bool) extracteval.System {
	opts := extract.Options{Engine: eng, LibraryOnly: libraryOnly, MinChars: -1}
	if libraryOnly {
		name += " alone"
	} else {
		name += " +fixes"
	}
	return extracteval.System{Name: name, Extract: func(ctx context.Context, in extracteval.Input) (string, error) {
		a, _, err := extract.Page(ctx, extract.Input{URL: in.URL, ContentType: in.ContentType, Body: in.Body}, opts)
		return a.Text, err
	}}
}

// readSplits parses NAME=FILE pairs into id lists by dataset name.
func readSplits(spec string) (map[string][]string, error) {
	out := map[string][]string{}
	if spec == "" {
		return out, nil
	}
	for _, pair := range strings.Split(spec, ",") {
		name, file, ok := strings.Cut(pair, "=")
		if !ok {
			return nil, fmt.Errorf("-ids: want NAME=FILE, got %q", pair)
		}
		ids, err := extracteval.ReadIDs(file)
		if err != nil {
			return nil, err
		}
		out[name] = ids
	}
	return out, nil
}
