package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/exec/optimized" // the reflection-free runtime, as beamx has it
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"           // gs:// paths
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners"                     // the --runner flag
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	//lint:ignore SA1019 Beam deprecates its direct runner for prism (the default here); kept so that --runner=direct, a name Beam took, still runs a job
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/direct"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
)

// runner is a Beam runner neardup-beam runs its job on.
type runner struct {
	name    string   // the value of --runner
	aliases []string // the other names Beam gives it (FlinkRunner)
	execute func(context.Context, *beam.Pipeline) (beam.PipelineResult, error)
}

// runnerTable is the runners of the binary, the default first: Beam's Go
// SDK's runners that run a job, each called here rather than through
// Beam's registry of names (beam.Run), which ends the process on a name it
// lacks. Beam's dot runner (which draws the pipeline) and vet runner
// (which checks its registrations) run no job, and are not in it.
var runnerTable = []runner{
	{name: "prism", aliases: []string{"PrismRunner"}, execute: prism.Execute},
	{name: "flink", aliases: []string{"FlinkRunner"}, execute: flink.Execute},
	{name: "spark", aliases: []string{"SparkRunner"}, execute: spark.Execute},
	{name: "dataflow", aliases: []string{"DataflowRunner"}, execute: dataflow.Execute},
	{name: "universal", aliases: []string{"portable", "PortableRunner"}, execute: universal.Execute},
	{name: "direct", aliases: []string{"DirectRunner"}, execute: direct.Execute},
}

// runnerNames lists the runners of runnerTable in words, for a message.
func runnerNames() string {
	names := make([]string, len(runnerTable))
	for i, r := range runnerTable {
		names[i] = r.name
	}
	names[0] += " (the default)"
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// lookupRunner returns the runner of runnerTable named name (--runner,
// by its name or an alias, as Beam spells them); "" is the default,
// prism. Another name is a usageError naming the runners there are.
func lookupRunner(name string) (runner, error) {
	if name == "" {
		return runnerTable[0], nil
	}
	for _, r := range runnerTable {
		if r.name == name || slices.Contains(r.aliases, name) {
			return r, nil
		}
	}
	return runner{}, usageError{fmt.Errorf("--runner %s: not a runner of neardup-beam, which runs its job on %s", name, runnerNames())}
}

// runOn runs p on r. A panic of the runner's (Beam's runners panic on
// some of their flags' values: --resource_hints without =, a Dataflow
// --staging_location that is not gs://) is returned as an error, so that
// the run removes what it made and says why as for any failure.
func runOn(ctx context.Context, r runner, p *beam.Pipeline) (res beam.PipelineResult, err error) {
	defer func() {
		if v := recover(); v != nil {
			res, err = nil, fmt.Errorf("runner %s: %v", r.name, v)
		}
	}()
	return r.execute(ctx, p)
}
