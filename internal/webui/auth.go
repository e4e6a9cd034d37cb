package webui

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// cookieName is the cookie the sign-in form keeps the write token in.
const cookieName = "neardup_token"

// cookieDays is how long the sign-in cookie lasts.
const cookieDays = 30

// token returns the request's token: from its bearer header, else from
// the sign-in cookie (fromCookie true).
func (u *ui) token(r *http.Request) (tok string, fromCookie bool) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, t, ok := strings.Cut(h, " ")
		if ok && strings.EqualFold(scheme, "Bearer") {
			return strings.TrimSpace(t), false
		}
		return "", false
	}
	if c, err := r.Cookie(cookieName); err == nil {
		return c.Value, true
	}
	return "", false
}

// authorized reports whether tok is a write token.
func (u *ui) authorized(tok string) bool {
	return tok != "" && len(tok) <= 4096 && u.o.Authorized != nil && u.o.Authorized(tok)
}

// csrf is the CSRF field of the forms of a signed-in user: bound to the
// token and to this process, so another site can neither read nor make it.
func (u *ui) csrf(tok string) string {
	m := hmac.New(sha256.New, u.key)
	m.Write([]byte("csrf\x00" + tok))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// need checks that r carries a write token and, for a form posted with the
// sign-in cookie, its CSRF field. A bearer header needs no CSRF field: a
// browser never adds one on its own.
func (u *ui) need(r *http.Request) error {
	tok, fromCookie := u.token(r)
	if !u.authorized(tok) {
		if tok != "" {
			return errorf(http.StatusUnauthorized, "token", "The write token is not valid (or no longer): sign in again.")
		}
		return errorf(http.StatusUnauthorized, "token", "This page needs a write token: sign in below.")
	}
	if fromCookie && r.Method != http.MethodGet && r.Method != http.MethodHead {
		if !hmac.Equal([]byte(r.PostFormValue("csrf")), []byte(u.csrf(tok))) {
			return errorf(http.StatusForbidden, "csrf", "The form has expired (the server restarted, or you signed in again): reload the page and send it again.")
		}
	}
	return nil
}

// signinPage is the data of signin.html.
type signinPage struct {
	Next    string
	Message string
}

func (u *ui) signinForm(r *http.Request) (result, error) {
	return result{page: "signin.html", title: "Sign in", data: signinPage{Next: localPath(r.FormValue("next"))}}, nil
}

// signin keeps a valid token in the sign-in cookie and goes back to the
// page that asked for it.
func (u *ui) signin(r *http.Request) (result, error) {
	r.Body = http.MaxBytesReader(nil, r.Body, 64<<10)
	tok := strings.TrimSpace(r.PostFormValue("token"))
	next := localPath(r.PostFormValue("next"))
	if !u.authorized(tok) {
		return result{page: "signin.html", title: "Sign in", status: http.StatusUnauthorized,
			data: signinPage{Next: next, Message: "That is not a write token of this server."}}, nil
	}
	return result{redirect: next, cookie: &http.Cookie{Name: cookieName, Value: tok, Path: "/", MaxAge: cookieDays * 24 * 3600,
		HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode}}, nil
}

// signout forgets the sign-in cookie.
func (u *ui) signout(r *http.Request) (result, error) {
	return result{redirect: "/", cookie: &http.Cookie{Name: cookieName, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode}}, nil
}

// localPath returns p, normalised, when it is a path of this site
// ("/feeds?x=1"), else "/": a redirect never leaves the site. What a
// browser could read as another host is refused: a scheme or a host, a
// leading "//" or "/\" (a browser reads a backslash as a slash), and any
// control character (a browser drops tabs and line breaks from a URL, so
// "/\t/evil.example" is "//evil.example" to it). The path is cleaned of
// dot segments, so that none starts "//" once resolved.
func localPath(p string) string {
	if len(p) > 2048 || !strings.HasPrefix(p, "/") || strings.ContainsFunc(p, unicode.IsControl) ||
		strings.ContainsRune(p, '\\') || !utf8.ValidString(p) {
		return "/"
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return "/"
	}
	escaped := u.EscapedPath()
	out := path.Clean(escaped)
	if strings.HasSuffix(escaped, "/") && out != "/" {
		out += "/"
	}
	if u.RawQuery != "" {
		out += "?" + u.RawQuery
	}
	if !strings.HasPrefix(out, "/") || strings.HasPrefix(out, "//") {
		return "/"
	}
	return out
}
