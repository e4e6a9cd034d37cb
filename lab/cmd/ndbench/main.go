// Command ndbench benchmarks the whole neardup pipeline on a generated
// corpus: it builds an N-document corpus with seeded edits from real texts
// given by path (lab/internal/gen), measures a baseline that only reads and
// decodes it, runs each method's batch job in a child process of its own,
// and prints documents per second, MB per second, CPU time, peak resident
// memory and the quality against the generator's truth (internal/eval).
//
//	cd lab && go run ./cmd/ndbench --reuters ../../shared/data/reuters21578/sgm -n 20000 --methods minhash,sentences
//
// The baseline and every method run as `ndbench child SPEC`, a hidden
// subcommand, so that each peak RSS and CPU time is that run's alone; the
// parent takes them from the child's rusage. Generation and scoring run in
// children too, so the parent stays small (Linux counts a parent's peak
// RSS in a child's rusage when the child starts). Generated corpora are
// cached in the work directory by size, seed and sources; the baseline runs
// first and reads the corpus into the page cache for the methods. The
// environment (GOGC, GOMEMLIMIT, GODEBUG) passes to every child.
//
// With --peer it also runs the Go MinHash LSH package
// github.com/ekzhu/minhash-lsh on the same corpus, reader and cores (peer.go)
// and prints each method's speed against it, measured in the same run.
//
// On a shared machine compare methods by their ratio to the baseline
// measured in the same run (wall/base, CPU/base) and note the load average
// the report prints.
//
// This file is the composition root: it parses the command line and maps
// errors to exit codes.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"

	"github.com/alecthomas/kong"
)

// usageError marks a mistake in the command line; it exits with code 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:]))
}

// run parses args, runs the benchmark (or, when args start with "child",
// one child run) and returns the exit code: 0 success, 1 failure, 2 bad
// usage.
func run(ctx context.Context, args []string) int {
	if len(args) > 0 && args[0] == "child" {
		return parseAndRun(ctx, &childCmd{}, "ndbench child", "Run one measured job (internal).", args[1:])
	}
	return parseAndRun(ctx, &benchCmd{}, "ndbench",
		"Benchmark neardup end to end on a generated corpus: speed, peak memory and quality per method.", args)
}

// parseAndRun parses args into cmd, a kong flag struct with a
// Run(context.Context) error method, and runs it.
func parseAndRun(ctx context.Context, cmd any, name, desc string, args []string) (code int) {
	parser, err := kong.New(cmd, kong.Name(name), kong.Description(desc), kong.UsageOnError(),
		kong.BindTo(ctx, (*context.Context)(nil)),
		// --help makes kong exit: turn that into a return from run.
		kong.Exit(func(code int) { panic(helpExit(code)) }))
	if err != nil {
		panic(err) // the flag struct is malformed: a programmer error
	}
	defer func() {
		if r := recover(); r != nil {
			h, ok := r.(helpExit)
			if !ok {
				panic(r)
			}
			code = int(h)
		}
	}()
	kctx, err := parser.Parse(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return 2
	}
	return exitCode(kctx.Run())
}

// helpExit carries kong's exit code after it printed help.
type helpExit int

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	fmt.Fprintf(os.Stderr, "ndbench: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}
