package dedup

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/neardup/neardup/internal/engine"
)

// stagePrefix starts the name of a stage (NewStage): hidden, and no result
// file's name, so that RemoveEarlier and Merge pass it over.
const stagePrefix = ".neardup-beam-new-"

// NewStage returns a new directory inside out for a job to write its files
// into (Options.Stage): out/.neardup-beam-new-<26 random letters and
// digits>. Nothing is created: the job's writers create it, and Publish or
// Discard removes it.
func NewStage(out string) string {
	return outPath(out, stagePrefix+rand.Text())
}

// Publish moves the files the job of o wrote into o.Stage into o.Out, once
// the job has succeeded, so that Out holds the new results and a job that
// failed left the earlier ones as they were. It first checks that the
// stage holds every file the run writes (each JSON Lines file or its
// shards, and stats.json) and that the run read a document, as the batch
// refuses a run that read none (with its words: "no documents: the inputs
// hold no records"), then moves them, stats.json last, each by a
// rename where the file system renames (a copy and a removal where it
// does not); it removes the stage, then the files of an earlier run the
// new ones did not replace (RemoveEarlier), whose paths it returns. A
// stage that lacks a file is an error, and removed, Out left as it was; a
// file that cannot be moved is an error naming the stage, which holds the
// files not moved yet.
func Publish(ctx context.Context, o Options) ([]string, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if o.Stage == "" {
		return nil, fmt.Errorf("dedup: no stage to publish into %s", o.Out)
	}
	fs, err := filesystem.New(ctx, o.Out)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	staged, err := fs.List(ctx, outPath(o.Stage, "*"))
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", o.Stage, err)
	}
	have := map[string]bool{}
	for _, p := range staged {
		have[path.Base(p)] = true
	}
	names := o.files()
	for _, name := range names {
		if !have[name] {
			err := fmt.Errorf("the job wrote no %s into %s: %s is left as it was", name, o.Stage, o.Out)
			return nil, joinRemoval(err, removeStage(ctx, fs, o.Stage))
		}
	}
	st, err := ReadStats(ctx, o.Stage)
	if err == nil && st.Documents == 0 {
		err = noDocuments(st)
	}
	if err != nil {
		return nil, joinRemoval(err, removeStage(ctx, fs, o.Stage))
	}
	for _, name := range names {
		if err := filesystem.Rename(ctx, fs, outPath(o.Stage, name), outPath(o.Out, name)); err != nil {
			return nil, fmt.Errorf("moving %s into %s: %w (the results not moved yet are in %s)", name, o.Out, err, o.Stage)
		}
	}
	if err := removeStage(ctx, fs, o.Stage); err != nil {
		return nil, err
	}
	return RemoveEarlier(ctx, o)
}

// noDocuments is the error of a run that read no document, in the words
// of the batch (package job): how many records it read and why each was
// skipped; and, as the pipeline reads the JSON Lines members of archives
// alone, how many members it did not read.
func noDocuments(st engine.Stats) error {
	msg := "no documents: the inputs hold no records"
	if st.Read > 0 {
		reasons := make([]string, 0, len(st.Skipped))
		for r, n := range st.Skipped {
			reasons = append(reasons, fmt.Sprintf("%d %s", n, r))
		}
		slices.Sort(reasons)
		msg = fmt.Sprintf("no documents: %d records read, every one skipped (%s)", st.Read, strings.Join(reasons, ", "))
	}
	if st.Unlisted > 0 {
		msg += fmt.Sprintf("; files not read: %d, archive members whose names are not of JSON Lines, the one format neardup-beam reads", st.Unlisted)
	}
	return errors.New(msg)
}

// Discard removes o.Stage and what a job wrote there: the files of a job
// that failed, or whose results are not to be published. No stage, or
// one never created, is no error.
func Discard(ctx context.Context, o Options) error {
	if o.Stage == "" {
		return nil
	}
	fs, err := filesystem.New(ctx, o.Stage)
	if err != nil {
		return err
	}
	defer fs.Close()
	return removeStage(ctx, fs, o.Stage)
}

// removeStage removes the stage dir: a local directory with all it holds,
// or in another file system each file of it.
func removeStage(ctx context.Context, fs filesystem.Interface, dir string) error {
	if isLocal(dir) {
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("removing %s: %w", dir, err)
		}
		return nil
	}
	files, err := fs.List(ctx, outPath(dir, "*"))
	if err != nil {
		return fmt.Errorf("listing %s: %w", dir, err)
	}
	rm, ok := fs.(filesystem.Remover)
	if !ok && len(files) > 0 {
		return fmt.Errorf("%s holds files its file system cannot remove here: remove them by hand", dir)
	}
	for _, p := range files {
		if err := rm.Remove(ctx, p); err != nil {
			return fmt.Errorf("removing %s: %w", p, err)
		}
	}
	return nil
}

// joinRemoval adds to err the error of removing the stage, if any.
func joinRemoval(err, rmErr error) error {
	if rmErr == nil {
		return err
	}
	return fmt.Errorf("%w; %w", err, rmErr)
}
