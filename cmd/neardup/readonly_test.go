package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/store"
)

// nobody is the user a child runs as, when the test runs as root, to stand
// for one who may not write an index: root may write whatever the modes
// say.
const nobody = 65534

// An index this process may not write, a write-protected file or one in a
// directory it may not create files in, is read by index query, stats,
// verify and export, which create nothing beside it, and refused by index
// add, remove, expire and rescore with an error naming the file and why.
// Each read opened it for writing: in a directory it may not write, every
// command failed ("the index cannot be written (attempt to write a
// readonly database (1544))"), stats included; beside a write-protected
// file, each read left a log and a shared-memory file with the file's
// mode, which refused every later write even once the file was writable
// again; a write failed naming no file.
func TestUnwritableIndexIsRead(t *testing.T) {
	t.Parallel()
	root := os.Geteuid() == 0
	for _, tc := range []struct {
		name string
		// protect takes write permission away from the child (its user,
		// when the test runs as root) and returns how to give it back.
		protect func(t *testing.T, dir, db string) (restore func())
	}{
		{"write-protected file", func(t *testing.T, dir, db string) func() {
			if root { // root's file; nobody may create files beside it
				chmod(t, dir, 0o777)
				return func() { chown(t, db, nobody) }
			}
			chmod(t, db, 0o444)
			return func() { chmod(t, db, 0o644) }
		}},
		{"read-only directory", func(t *testing.T, dir, db string) func() {
			if root { // nobody's file in root's directory
				chown(t, db, nobody)
				return func() { chmod(t, dir, 0o777) }
			}
			chmod(t, dir, 0o555)
			return func() { chmod(t, dir, 0o755) }
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			top, _ := sharedTop(t)
			for _, d := range []string{"index", "out"} {
				if err := os.Mkdir(filepath.Join(top, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			chmod(t, filepath.Join(top, "out"), 0o777)
			corpus, docs := writeCorpus(t, top, 90)
			chmod(t, corpus, 0o644)
			first := filepath.Join(top, "first.jsonl")
			data, _ := os.ReadFile(corpus)
			lines := bytes.SplitAfter(data, []byte("\n"))
			if err := os.WriteFile(first, bytes.Join(lines[:60], nil), 0o644); err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(top, "index", "news.db")
			runOK(t, "index", "add", "--db", db, first)
			restore := tc.protect(t, filepath.Join(top, "index"), db)
			t.Cleanup(func() { chmod(t, filepath.Join(top, "index"), 0o755) }) // for the removal of top
			before := dirFiles(t, filepath.Join(top, "index"))
			run := func(args ...string) (int, string) {
				cmd := child(t, append([]string{"-q"}, args...)...)
				if root {
					cmd.Env = append(cmd.Env, "NEARDUP_TEST_UID=65534")
				}
				var out, errOut bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errOut
				code := exitCodeOf(cmd.Run())
				if code != 0 {
					return code, errOut.String()
				}
				return code, out.String()
			}
			for _, args := range [][]string{
				{"index", "stats", "--db", db},
				{"index", "query", "--db", db, corpus},
				{"index", "verify", "--db", db},
				{"index", "export", "--db", db, "-o", filepath.Join(top, "out", "x")},
			} {
				code, out := run(args...)
				if code != 0 {
					t.Errorf("%s: exit code %d: %s", strings.Join(args[:2], " "), code, out)
				}
				if args[1] == "stats" && !strings.Contains(out, `"documents": 60,`) {
					t.Errorf("index stats: %s, want 60 documents", out)
				}
				if after := dirFiles(t, filepath.Join(top, "index")); !slices.Equal(after, before) {
					t.Fatalf("%s: the index's directory holds %v, was %v", strings.Join(args[:2], " "), after, before)
				}
			}
			for _, args := range [][]string{
				{"index", "add", "--db", db, corpus},
				{"index", "remove", "--db", db, docs[0].ID},
				{"index", "expire", "--db", db, "--older-than", "1s"},
				{"index", "rescore", "--db", db},
			} {
				code, out := run(args...)
				if code != 1 || !strings.Contains(out, db+": the index cannot be written: ") {
					t.Errorf("%s: exit code %d, %q; want 1 and an error saying %s cannot be written", strings.Join(args[:2], " "), code, out, db)
				}
			}
			if after := dirFiles(t, filepath.Join(top, "index")); !slices.Equal(after, before) {
				t.Fatalf("the index's directory holds %v, was %v", after, before)
			}
			restore()
			if code, out := run("index", "add", "--db", db, corpus); code != 0 {
				t.Fatalf("index add once the index may be written: exit code %d: %s", code, out)
			}
			if ids, _ := storedIndex(t, db); len(ids) != len(docs) {
				t.Errorf("%d documents stored, want %d", len(ids), len(docs))
			}
		})
	}
}

// index add of a new index in a directory this process may not write
// fails saying so, where SQLite said "unable to open database file".
func TestNewIndexInAReadOnlyDirectory(t *testing.T) {
	t.Parallel()
	top, root := sharedTop(t)
	corpus, _ := writeCorpus(t, top, 10)
	chmod(t, corpus, 0o644)
	dir := filepath.Join(top, "index")
	if err := os.Mkdir(dir, 0o755); err != nil { // root's, when nobody runs neardup
		t.Fatal(err)
	}
	if !root {
		chmod(t, dir, 0o555)
		t.Cleanup(func() { chmod(t, dir, 0o755) })
	}
	db := filepath.Join(dir, "news.db")
	cmd := child(t, "-q", "index", "add", "--db", db, corpus)
	if root {
		cmd.Env = append(cmd.Env, "NEARDUP_TEST_UID=65534")
	}
	out, err := cmd.CombinedOutput()
	if want := db + ": the index cannot be written: this process may not create files in " + dir; exitCodeOf(err) != 1 || !strings.Contains(string(out), want) {
		t.Errorf("exit code %d, %q; want 1 and %q", exitCodeOf(err), out, want)
	}
	if files := dirFiles(t, dir); len(files) > 0 {
		t.Errorf("the directory holds %v", files)
	}
}

// A copy of an index in use, its log beside it without its shared-memory
// file, in a directory this process may not create that file in, cannot be
// read by SQLite: stats and verify fail saying what is missing, where and
// what to do, where they said "the index cannot be written (unable to open
// database file (14))" of a read; they create nothing beside it. A process
// that may write the directory reads it.
func TestLogWithoutSharedMemoryIsExplained(t *testing.T) {
	t.Parallel()
	top, root := sharedTop(t)
	corpus, _ := writeCorpus(t, top, 30)
	chmod(t, corpus, 0o644)
	db := filepath.Join(top, "news.db")
	runOK(t, "index", "add", "--db", db, corpus)
	dir := filepath.Join(top, "copy")
	if err := os.Mkdir(dir, 0o755); err != nil { // root's, when nobody runs neardup
		t.Fatal(err)
	}
	st, err := store.Open(t.Context(), db, store.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	// A commit in the log, copied with the file: the copy of an index in use.
	err = st.Update(t.Context(), func(w store.Writer) error { return w.PauseHost("example.com", 2e9, 1e9) })
	for _, suffix := range []string{"", "-wal"} {
		data, rerr := os.ReadFile(db + suffix)
		if rerr != nil || len(data) == 0 {
			t.Fatalf("%s%s: %v, %d bytes", db, suffix, rerr, len(data))
		}
		if werr := os.WriteFile(filepath.Join(dir, "news.db"+suffix), data, 0o644); werr != nil {
			t.Fatal(werr)
		}
	}
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !root {
		chmod(t, dir, 0o555)
		t.Cleanup(func() { chmod(t, dir, 0o755) })
	}
	copied := filepath.Join(dir, "news.db")
	for _, args := range [][]string{{"index", "stats"}, {"index", "verify"}} {
		cmd := child(t, append([]string{"-q"}, append(args, "--db", copied)...)...)
		if root {
			cmd.Env = append(cmd.Env, "NEARDUP_TEST_UID=65534")
		}
		out, err := cmd.CombinedOutput()
		want := copied + ": the index cannot be read: its log " + copied + "-wal is beside it without the shared-memory file " +
			copied + "-shm"
		if exitCodeOf(err) != 1 || !strings.Contains(string(out), want) || !strings.Contains(string(out), "this process may not create files in "+dir) {
			t.Errorf("%s: exit code %d, %q; want 1 and %q, saying why", strings.Join(args, " "), exitCodeOf(err), out, want)
		}
		if files := dirFiles(t, dir); !slices.Equal(files, []string{"news.db", "news.db-wal"}) {
			t.Errorf("%s: the directory holds %v", strings.Join(args, " "), files)
		}
	}
	if !root {
		chmod(t, dir, 0o755)
	}
	runOK(t, "-q", "index", "stats", "--db", copied)
}

// An index reached through a symbolic link in a directory this process
// may not write, leading to a file it may write in a directory it may
// write, is written: SQLite keeps the log beside the file the link leads
// to.
func TestIndexThroughALinkIsWritten(t *testing.T) {
	t.Parallel()
	top, root := sharedTop(t)
	index, links := filepath.Join(top, "index"), filepath.Join(top, "links")
	for _, d := range []string{index, links} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	corpus, docs := writeCorpus(t, top, 30)
	chmod(t, corpus, 0o644)
	db, link := filepath.Join(index, "news.db"), filepath.Join(links, "news.db")
	runOK(t, "index", "add", "--db", db, corpus)
	if err := os.Symlink(db, link); err != nil {
		t.Fatal(err)
	}
	if root { // nobody's index, in a directory of nobody's, linked from root's
		chmod(t, index, 0o777)
		chown(t, db, nobody)
	} else {
		chmod(t, links, 0o555)
		t.Cleanup(func() { chmod(t, links, 0o755) })
	}
	cmd := child(t, "-q", "index", "remove", "--db", link, docs[0].ID)
	if root {
		cmd.Env = append(cmd.Env, "NEARDUP_TEST_UID=65534")
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("index remove through the link: %v\n%s", err, out)
	}
	if ids, _ := storedIndex(t, db); ids[docs[0].ID] || len(ids) != len(docs)-1 {
		t.Errorf("%d documents stored, %s among them: want %d, not it", len(ids), docs[0].ID, len(docs)-1)
	}
}

// sharedTop returns a temporary directory of the test that every user may
// read and look up paths in, and whether the test runs as root (its
// children then run neardup as nobody).
func sharedTop(t *testing.T) (top string, root bool) {
	t.Helper()
	root = os.Geteuid() == 0
	top = t.TempDir()
	chmod(t, top, 0o755)
	if root {
		lookupByAll(t, top)
	}
	return top, root
}

// lookupByAll lets every user look up dir, a test's temporary directory,
// from the root (a child running as nobody opens an index there), or skips
// the test when it cannot: the directories above the test's own must let
// them already.
func lookupByAll(t *testing.T, dir string) {
	t.Helper()
	chmod(t, filepath.Dir(dir), 0o711) // the test's own, holding its temporary directories
	for d := filepath.Dir(filepath.Dir(dir)); ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o001 == 0 {
			t.Skipf("run as root, the test needs a TMPDIR whose path every user may look up, as nobody runs neardup there; %s is %v", d, fi.Mode().Perm())
		}
		if d == filepath.Dir(d) {
			return
		}
	}
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func chown(t *testing.T, path string, uid int) {
	t.Helper()
	if err := os.Chown(path, uid, uid); err != nil {
		t.Fatal(err)
	}
}

// dirFiles returns the names of the files in dir.
func dirFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// neardup serve, run by a user who may only read the index, follows what
// another user's processes add and remove: index add and remove, run
// while the writer's log is beside the index and while it is not, and a
// writer that keeps the index open all along. Once the first write was
// made, every read answered 500 ("another process wrote the index since
// this one ... opened it") until serve was restarted.
func TestServeFollowsAnotherUsersWrites(t *testing.T) {
	t.Parallel()
	top, dir := indexDirOfRoot(t)
	corpus, docs := writeCorpus(t, top, 120)
	data, _ := os.ReadFile(corpus)
	lines := bytes.SplitAfter(data, []byte("\n"))
	part := func(i int) string {
		p := filepath.Join(top, fmt.Sprintf("part%d.jsonl", i))
		if err := os.WriteFile(p, bytes.Join(lines[i*len(docs)/4:(i+1)*len(docs)/4], nil), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	db := filepath.Join(dir, "news.db")
	runOK(t, "index", "add", "--db", db, part(0))
	get, _ := serveAsNobody(t, "", "-q", "serve", "--db", db)
	stored := map[string]bool{}
	for _, d := range docs[:len(docs)/4] {
		stored[d.ID] = true
	}
	check := func(when string) {
		t.Helper()
		if code, body := get("/v1/stats"); code != 200 || !strings.Contains(body, fmt.Sprintf(`"documents":%d,`, len(stored))) {
			t.Errorf("%s: stats: %d %s; want %d documents", when, code, body, len(stored))
		}
		for _, d := range []core.Document{docs[0], docs[len(docs)/4-1], docs[len(docs)-1]} {
			want := 404
			if stored[d.ID] {
				want = 200
			}
			if code, body := get("/v1/documents/" + url.PathEscape(d.ID)); code != want {
				t.Errorf("%s: document %s: %d %s; want %d", when, d.ID, code, body, want)
			}
		}
		if code, body := get("/v1/search?q=" + url.QueryEscape(strings.Fields(docs[0].Text)[0])); code != 200 {
			t.Errorf("%s: search: %d %s", when, code, body)
		}
	}
	check("before any write")
	for i := 1; i < 4; i++ {
		var held store.Store
		if i == 2 { // a writer that keeps the index open, its log beside it
			var err error
			if held, err = store.Open(t.Context(), db, store.Options{}); err != nil {
				t.Fatal(err)
			}
		}
		runOK(t, "index", "add", "--db", db, part(i))
		for _, d := range docs[i*len(docs)/4 : (i+1)*len(docs)/4] {
			stored[d.ID] = true
		}
		check(fmt.Sprintf("after add %d", i))
		gone := docs[i] // one of the first part
		runOK(t, "index", "remove", "--db", db, gone.ID)
		delete(stored, gone.ID)
		check(fmt.Sprintf("after remove %d", i))
		if held != nil {
			held.Close()
			check(fmt.Sprintf("after its writer closed %d", i))
		}
	}
	for _, name := range dirFiles(t, dir) {
		var st syscall.Stat_t
		if err := syscall.Stat(filepath.Join(dir, name), &st); err == nil && st.Uid == nobody {
			t.Errorf("the reader left %s in the index's directory", name)
		}
	}
}

// A server of an index it may not write (another user's, served for
// reading) says so at start, offers a writer none of the forms that could
// only fail (remove, store), tells why on its pages, and refuses --watch,
// whose every poll would fail. Regression: a signed-in writer saw the
// forms, each answering 403, and serve said nothing.
func TestServeReadOnlyOffersNoWrites(t *testing.T) {
	t.Parallel()
	top, dir := indexDirOfRoot(t)
	corpus, docs := writeCorpus(t, top, 12)
	db := filepath.Join(dir, "news.db")
	runOK(t, "index", "add", "--db", db, corpus)
	tokens := filepath.Join(top, "tokens.txt")
	if err := os.WriteFile(tokens, []byte("s3cret-token-of-the-editors\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	watching := child(t, "serve", "--db", db, "--addr", "127.0.0.1:0", "--watch", "--token-file", tokens)
	watching.Env = append(watching.Env, "NEARDUP_TEST_UID=65534")
	var watchOut syncBuffer
	watching.Stdout, watching.Stderr = &watchOut, &watchOut
	if err := watching.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- watching.Wait() }()
	select {
	case err := <-ended:
		if out := watchOut.String(); err == nil || !strings.Contains(out, "--watch: ") || !strings.Contains(out, "cannot be written") {
			t.Errorf("serve --watch of a read-only index: %v\n%s", err, out)
		}
	case <-time.After(30 * time.Second):
		watching.Process.Kill()
		<-ended
		t.Errorf("serve --watch of a read-only index kept serving, its watcher failing:\n%.2000s", watchOut.String())
	}
	get, errOut := serveAsNobody(t, "s3cret-token-of-the-editors", "serve", "--db", db, "--token-file", tokens)
	// The child logs it before it serves, but the log reaches errOut
	// through a pipe that the answer to /readyz may overtake.
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(errOut.String(), "this process may not write the index"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Errorf("serve's log says nothing of the read-only index:\n%s", errOut.String())
			break
		}
	}
	code, body := get("/documents/" + url.PathEscape(docs[0].ID))
	if code != 200 || strings.Contains(body, "Remove the document") || !strings.Contains(body, "This server may not write the index") {
		t.Errorf("a document's page for a writer: %d, want no remove form and the notice:\n%.2000s", code, body)
	}
}

// indexDirOfRoot returns sharedTop's directory and, in it, a directory
// for an index that root owns and nobody may create files in, where a
// child runs neardup as nobody; it skips the test when not run as root,
// which alone may start such a child.
func indexDirOfRoot(t *testing.T) (top, dir string) {
	t.Helper()
	top, root := sharedTop(t)
	if !root {
		t.Skip("neardup runs as another user here, which only root may start")
	}
	dir = filepath.Join(top, "index")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return top, dir
}

// serveAsNobody starts neardup with args (a serve command, given a free
// address) as the user nobody, waits until it is ready, and returns a GET
// of its pages (with token as a bearer token, when not "") and its log.
// The server is stopped when t ends.
func serveAsNobody(t *testing.T, token string, args ...string) (get func(path string) (int, string), log *syncBuffer) {
	t.Helper()
	addr := freeAddr(t)
	cmd := child(t, append(args, "--addr", addr)...)
	cmd.Env = append(cmd.Env, "NEARDUP_TEST_UID=65534")
	log = &syncBuffer{}
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() })
	get = func(path string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if code, _ := get("/readyz"); code == 200 {
			return get, log
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve not ready: %s", log.String())
		}
	}
}

// freeAddr returns a loopback address with a port no one listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
