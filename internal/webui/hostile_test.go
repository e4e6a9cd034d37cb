package webui

import (
	"database/sql"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
)

// Hostile or broken requests get a 4xx page, never a 5xx.
func TestHostileRequests(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	orig, _ := f.story(12)
	f.add(core.Document{ID: "a/b", Title: "<script>alert(1)</script>", Text: orig})
	long := strings.Repeat("x", 5000)
	cases := []struct {
		method, target, ctype, body string
		auth                        bool
	}{
		{"GET", "/documents/" + long, "", "", false},
		{"GET", "/documents/nope", "", "", false},
		{"GET", "/documents/%00", "", "", false},
		{"GET", "/documents/%2e%2e", "", "", false},
		{"GET", "/diff", "", "", false},
		{"GET", "/diff?a=x", "", "", false},
		{"GET", "/diff?a=x&b=y", "", "", false},
		{"GET", "/diff?a=a%2Fb&b=y", "", "", false},
		{"GET", "/diff?a=" + long + "&b=y", "", "", false},
		{"GET", "/diff?a=a%2Fb&b=a%2Fb&by=letter", "", "", false},
		{"GET", "/diff?a=%zz&b=%", "", "", false},
		{"GET", "/feeds/abc", "", "", true},
		{"GET", "/feeds/0", "", "", true},
		{"GET", "/feeds/99999999999999999999999", "", "", true},
		{"GET", "/feeds/7", "", "", true},
		{"POST", "/feeds/7", "application/x-www-form-urlencoded", "interval=1h", true},
		{"POST", "/feeds/7/remove", "application/x-www-form-urlencoded", "confirm=1", true},
		{"POST", "/feeds", "application/x-www-form-urlencoded", "url=" + long + long, true},
		{"POST", "/feeds", "application/x-www-form-urlencoded", "url=%zz", true},
		{"POST", "/feeds/try", "application/x-www-form-urlencoded", "test_url=http://[::1", true},
		{"POST", "/feeds/try", "application/x-www-form-urlencoded", "id=abc&test_url=http://127.0.0.1:1/", true},
		{"POST", "/check", "multipart/form-data; boundary=zz", "--zz\r\nbroken", false},
		{"POST", "/check", "multipart/form-data", "x", false},
		{"POST", "/check", "application/json", `{"text":"x"}`, false},
		{"POST", "/store", "application/x-www-form-urlencoded", "text=", true},
		{"POST", "/signin", "application/x-www-form-urlencoded", "token=" + long, false},
		{"GET", "/nope", "", "", false},
		{"PUT", "/check", "", "", false},
		{"DELETE", "/feeds/1", "", "", true},
		{"GET", "/assets/%2e%2e/webui.go", "", "", false},
	}
	for _, c := range cases {
		r := httptest.NewRequest(c.method, c.target, strings.NewReader(c.body))
		if c.ctype != "" {
			r.Header.Set("Content-Type", c.ctype)
		}
		if c.auth {
			r.Header.Set("Authorization", "Bearer "+testToken)
		}
		a := f.do(r)
		if a.code < 400 || a.code >= 500 {
			t.Errorf("%s %s: %d, want 4xx\n%s", c.method, short(80, c.target), a.code, short(500, a.body))
		}
		if strings.Contains(a.body, "<script>alert") {
			t.Errorf("%s %s: unescaped title", c.method, short(80, c.target))
		}
	}
	a := f.get("/documents/a%2Fb", false)
	a.want(t, "document a/b", 200, "&lt;script&gt;alert(1)&lt;/script&gt;")
}

// A stored URL that is not http or https (stored before such URLs were
// refused) is shown as text. Regression: "javascript:alert(1)" was a link
// to "#ZgotmplZ".
func TestDocumentURLNotWebAsText(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	x, err := neardup.Open(t.Context(), filepath.Join(dir, "ui.db"), neardup.Options{StoreText: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Add(t.Context(), core.Document{ID: "a", Text: "The council approved the budget.", URL: "https://example.com/a"}); err != nil {
		t.Fatal(err)
	}
	x.Close()
	db, err := sql.Open("sqlite", filepath.Join(dir, "ui.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The URL as an index of schema version 8 held it: opened again, the
	// index computes its record's checksum, as for any record stored
	// before version 9.
	for _, q := range []string{`UPDATE docs SET url = 'javascript:alert(1)' WHERE id = 'a'`,
		`ALTER TABLE docs DROP COLUMN doc_crc`, `ALTER TABLE docs DROP COLUMN place`, `UPDATE schema_version SET version = 8`} {
		if _, err := db.ExecContext(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	if x, err = neardup.Open(t.Context(), filepath.Join(dir, "ui.db"), neardup.Options{}); err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	w := httptest.NewRecorder()
	New(x, Options{}).ServeHTTP(w, httptest.NewRequest("GET", "/documents/a", nil))
	body := w.Body.String()
	if w.Code != 200 || !strings.Contains(body, "<dd>javascript:alert(1)</dd>") || strings.Contains(body, "ZgotmplZ") {
		t.Errorf("status %d; want the URL as text, not a link:\n%s", w.Code, short(3000, body))
	}
}
