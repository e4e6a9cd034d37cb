package dedup

import (
	"context"
	"fmt"
	"io"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// maxShards is the most shards a file is written in.
const maxShards = 99999

// shardPath is the path of shard k of n of the file name in dir:
// pairs.jsonl's shard 3 of 4 is pairs-00003-of-00004.jsonl (the extension
// kept after the shard number); with n 0, the file itself.
func shardPath(dir, name string, k, n int) string {
	if n == 0 {
		return outPath(dir, name)
	}
	base, ext, _ := strings.Cut(name, ".")
	return outPath(dir, fmt.Sprintf("%s-%05d-of-%05d.%s", base, k, n, ext))
}

// shardName matches the name of a shard: its file's base, number, count
// and extension.
var shardName = regexp.MustCompile(`^([a-z]+)-([0-9]{5})-of-([0-9]{5})\.(.+)$`)

// Merge joins the shards of each file in dir (written with
// Options.Shards) into the one file: its shards concatenated in the order
// of their numbers, which is the file a run without shards writes (a
// compressed kept file is then one stream of several members, which gzip
// and zstd read as one). A file whose shards are not all there is an
// error, and nothing in dir is changed: each file is written to a
// temporary name, and only once all are whole are they renamed into
// place (where the file system renames) and the shards removed. It
// returns the files written.
func Merge(ctx context.Context, dir string) ([]string, error) {
	fs, err := filesystem.New(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	all, err := fs.List(ctx, outPath(dir, "*-of-*"))
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", dir, err)
	}
	files := map[string][]string{} // the merged file's name → its shards' paths
	counts := map[string]int{}
	for _, p := range all {
		m := shardName.FindStringSubmatch(path.Base(p))
		if m == nil {
			continue
		}
		name := m[1] + "." + m[4]
		n, _ := strconv.Atoi(m[3])
		if c, ok := counts[name]; ok && c != n {
			return nil, fmt.Errorf("%s: shards of %d and of %d files; remove those of the older run", name, c, n)
		}
		counts[name] = n
		files[name] = append(files[name], p)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s holds no shards (NAME-00000-of-0000N...)", dir)
	}
	names := slices.Sorted(maps.Keys(files))
	for _, name := range names {
		if len(files[name]) != counts[name] {
			return nil, fmt.Errorf("%s: %d of its %d shards are in %s", name, len(files[name]), counts[name], dir)
		}
	}
	var written []func() error // each renames a file written into place
	for _, name := range names {
		shards := files[name]
		slices.Sort(shards)
		commit, err := concat(ctx, fs, outPath(dir, name), shards)
		if err != nil {
			removeTemps(ctx, fs, dir, names[:len(written)])
			return nil, err
		}
		written = append(written, commit)
	}
	var merged []string
	for i, name := range names {
		if err := written[i](); err != nil {
			return merged, err
		}
		merged = append(merged, outPath(dir, name))
	}
	for _, name := range names {
		for _, p := range files[name] {
			if rm, ok := fs.(filesystem.Remover); ok {
				if err := rm.Remove(ctx, p); err != nil {
					return merged, fmt.Errorf("removing %s: %w", p, err)
				}
			}
		}
	}
	return merged, nil
}

// removeTemps removes the temporary files of the files names of dir,
// written and not renamed (see writeTemp), when a merge stops.
func removeTemps(ctx context.Context, fs filesystem.Interface, dir string, names []string) {
	_, renames := fs.(filesystem.Renamer)
	rm, removes := fs.(filesystem.Remover)
	if !renames || !removes {
		return
	}
	for _, name := range names {
		rm.Remove(ctx, outPath(dir, name)+".tmp") // a file left is an earlier run's for the next run to remove
	}
}

// concat writes the files parts, one after another, to a temporary name
// of dst, and returns the func that renames it to dst (see writeTemp).
func concat(ctx context.Context, fs filesystem.Interface, dst string, parts []string) (func() error, error) {
	return writeTemp(ctx, fs, dst, func(w io.Writer) error {
		for _, p := range parts {
			r, err := fs.OpenRead(ctx, p)
			if err != nil {
				return fmt.Errorf("reading %s: %w", p, err)
			}
			_, err = io.Copy(w, r)
			if cerr := r.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return fmt.Errorf("reading %s: %w", p, err)
			}
		}
		return nil
	})
}
