package corpus

import (
	"fmt"
	"strings"

	"github.com/neardup/neardup/internal/container"
)

// place says where a record was read beyond its origin, which two records
// may share: two members of one name in an archive (a file appended again
// by `tar -r`, "a\b.txt" beside "a/b.txt"), or standard input and a file
// given as "stdin".
type place struct {
	stdin   bool   // read from standard input ("-")
	member  int    // container.Member.Index: the archive member's position, from 1; 0 in no archive
	archive string // container.Member.Archive
}

// placeOf returns the place of the records of the member m of the input
// in; nil for those of a file in no archive, which their origin tells.
func placeOf(in *input, m container.Member) *place {
	if in == nil || !in.stdin && m.Index == 0 {
		return nil
	}
	return &place{stdin: in.stdin, member: m.Index, archive: m.Archive}
}

// Places tells apart where rec and an earlier record of the same origin
// were read (the two places of a repeated id, written alike): this and
// earlier are what to write after each origin, "member 2 of f4.tar" and
// "an earlier member of that name", or "standard input" and "the
// file stdin"; "" for one the reader cannot tell. It is for a record
// Decode gave.
func (r *Reader) Places(rec *Record) (this, earlier string) {
	if at := rec.at; at != nil && at.member > 0 {
		archive := at.archive
		if at.stdin && archive == "stdin" {
			archive = "standard input"
		}
		return fmt.Sprintf("member %d of %s", at.member, archive), "an earlier member of that name"
	}
	// Standard input names its records "stdin", "stdin:3", "stdin#3", as
	// a file given as "stdin" does (a walk lists no file of that name):
	// the one read first is the earlier.
	o := rec.Doc.Origin
	if o != "stdin" && !strings.HasPrefix(o, "stdin:") && !strings.HasPrefix(o, "stdin#") {
		return "", ""
	}
	stdinAt, fileAt := -1, -1
	for i, in := range r.inputs {
		switch {
		case in.stdin:
			stdinAt = i
		case in.origin == "stdin":
			fileAt = i
		}
	}
	if stdinAt < 0 || fileAt < 0 {
		return "", ""
	}
	switch fromStdin := rec.at != nil && rec.at.stdin; {
	case fromStdin && fileAt < stdinAt:
		return "standard input", "the file stdin"
	case !fromStdin && stdinAt < fileAt:
		return "the file stdin", "standard input"
	}
	return "", ""
}
