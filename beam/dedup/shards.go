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
// and zstd read as one). Each file is written to a temporary name and
// renamed when whole; then its shards are removed. A file whose shards are
// not all there is an error, and nothing of it is changed. It returns the
// files written.
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
	var merged []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		shards := files[name]
		slices.Sort(shards)
		if len(shards) != counts[name] {
			return merged, fmt.Errorf("%s: %d of its %d shards are in %s", name, len(shards), counts[name], dir)
		}
		if err := concat(ctx, fs, outPath(dir, name), shards); err != nil {
			return merged, err
		}
		merged = append(merged, outPath(dir, name))
		for _, p := range shards {
			if rm, ok := fs.(filesystem.Remover); ok {
				if err := rm.Remove(ctx, p); err != nil {
					return merged, fmt.Errorf("removing %s: %w", p, err)
				}
			}
		}
	}
	return merged, nil
}

// concat writes the files parts, one after another, to dst.
func concat(ctx context.Context, fs filesystem.Interface, dst string, parts []string) error {
	return writeRaw(ctx, fs, dst, func(w io.Writer) error {
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
