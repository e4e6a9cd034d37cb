package server

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

// Tokens are the bearer tokens that may write (and, with Options.AuthReads,
// read). The zero value and nil hold none. Safe for concurrent use.
type Tokens struct {
	// sums are the tokens' SHA-256 sums: every token a request could
	// carry is compared with each of them in constant time, whatever its
	// length.
	sums [][sha256.Size]byte
}

// MinTokenBytes is the shortest token LoadTokens accepts.
const MinTokenBytes = 16

// LoadTokens reads tokens from a file, one a line; blank lines and lines
// starting with # are ignored, spaces around a token are trimmed, and so is
// a byte-order mark at the start of the file: UTF-8's, or UTF-16's, whose
// text (as Windows editors save "Unicode") is decoded. A file without
// tokens, larger than maxTokenFile, or with a token shorter than
// MinTokenBytes or holding a character that is not printable ASCII (a
// space, a control character, a letter an Authorization header cannot
// carry), is an error naming its line.
func LoadTokens(path string) (*Tokens, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("token file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w", path, err)
	case len(data) > maxTokenFile:
		return nil, fmt.Errorf("%s: larger than %d bytes: not a token file", path, maxTokenFile)
	}
	if enc := utf16Of(data); enc != nil {
		if data, err = enc.NewDecoder().Bytes(data); err != nil {
			return nil, fmt.Errorf("%s: UTF-16 that does not decode: %w", path, err)
		}
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF")) // the byte-order mark some editors write
	var tokens []string
	for i, text := range strings.Split(string(data), "\n") {
		line := i + 1
		tok := strings.TrimSpace(text)
		switch {
		case tok == "" || strings.HasPrefix(tok, "#"):
			continue
		case strings.ContainsAny(tok, " \t"):
			return nil, fmt.Errorf("%s line %d: a token holds no spaces", path, line)
		case strings.IndexFunc(tok, unprintable) >= 0:
			r, _ := utf8.DecodeRuneInString(tok[strings.IndexFunc(tok, unprintable):])
			return nil, fmt.Errorf("%s line %d: a token holds only printable ASCII characters (letters, digits, -._~+/=), not %q",
				path, line, r)
		case len(tok) < MinTokenBytes:
			return nil, fmt.Errorf("%s line %d: a token must be at least %d characters", path, line, MinTokenBytes)
		}
		tokens = append(tokens, tok)
	}
	if len(tokens) == 0 {
		return nil, fmt.Errorf("%s: no tokens (one a line)", path)
	}
	return NewTokens(tokens...), nil
}

// unprintable reports whether r is no printable ASCII character.
func unprintable(r rune) bool { return r <= ' ' || r > '~' }

// maxTokenFile is the largest token file LoadTokens reads.
const maxTokenFile = 1 << 20

// utf16Of returns the UTF-16 decoding that data's byte-order mark names,
// or nil when it starts with none.
func utf16Of(data []byte) encoding.Encoding {
	switch {
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		return unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		return unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)
	}
	return nil
}

// NewTokens returns the given tokens.
func NewTokens(tokens ...string) *Tokens {
	t := &Tokens{}
	for _, tok := range tokens {
		t.sums = append(t.sums, sha256.Sum256([]byte(tok)))
	}
	return t
}

// Authorized reports whether r carries one of the tokens as
// "Authorization: Bearer TOKEN". It takes the same time whichever token
// matches, or none.
func (t *Tokens) Authorized(r *http.Request) bool {
	if t == nil || len(t.sums) == 0 {
		return false
	}
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return t.Valid(strings.TrimSpace(tok))
}

// Valid reports whether token is one of the tokens, in the same time
// whichever matches, or none (the web UI's sign-in checks a token so).
func (t *Tokens) Valid(token string) bool {
	if t == nil || len(t.sums) == 0 {
		return false
	}
	sum := sha256.Sum256([]byte(token))
	match := 0
	for i := range t.sums {
		match |= subtle.ConstantTimeCompare(sum[:], t.sums[i][:])
	}
	return match == 1
}

// Len returns how many tokens there are.
func (t *Tokens) Len() int {
	if t == nil {
		return 0
	}
	return len(t.sums)
}
