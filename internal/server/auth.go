package server

import (
	"bufio"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net/http"
	"os"
	"strings"
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
// a UTF-8 byte-order mark at the start of the file. A file
// without tokens, or with a token shorter than MinTokenBytes or holding
// spaces, is an error naming its line.
func LoadTokens(path string) (*Tokens, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("token file: %w", err)
	}
	defer f.Close()
	var tokens []string
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\uFEFF") // the byte-order mark some editors write
		}
		tok := strings.TrimSpace(text)
		switch {
		case tok == "" || strings.HasPrefix(tok, "#"):
			continue
		case len(tok) < MinTokenBytes:
			return nil, fmt.Errorf("%s line %d: a token must be at least %d characters", path, line, MinTokenBytes)
		case strings.ContainsAny(tok, " \t"):
			return nil, fmt.Errorf("%s line %d: a token holds no spaces", path, line)
		}
		tokens = append(tokens, tok)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(tokens) == 0 {
		return nil, fmt.Errorf("%s: no tokens (one a line)", path)
	}
	return NewTokens(tokens...), nil
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
