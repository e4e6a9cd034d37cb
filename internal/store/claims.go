package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// fillClaimedURLKeys, the step of schema version 11, deletes the exact
// keys but its content hash of each document whose URL may be one its page
// claimed (claimedURL): its URL's key and the slug keys of its URL and id.
// Until version 11 the watcher stored an article under the URL its page
// named as its own (<link rel="canonical">, og:url), which may be any,
// another site's or another article's; an article later fetched at that
// URL, or of its slug on that site, was then an exact copy of the page
// that named it, its text never compared. Which URL a page named and which
// it was fetched from (the item's link, a redirect) the stored row does
// not say: every such document loses them. Its documents, marks and
// content key stay: a copy of its title and text is still its exact copy,
// an article at its URL is compared by the method. A key a removal passed
// to a document (see index's heirs) is one of its own keys, and goes or
// stays with them. It runs in the migration's transaction.
func fillClaimedURLKeys(ctx context.Context, tx *sql.Tx, d *dialect) error {
	sel := d.rebind(fmt.Sprintf(`SELECT ord, id, url FROM docs WHERE ord > ? AND url <> '' AND url <> id
	ORDER BY ord LIMIT %d`, fillBatch))
	// The claims are gathered in a temporary table and their keys deleted
	// in one statement, one pass over exact, which has no index on ord: a
	// DELETE a batch would read the whole table once a batch.
	if _, err := tx.ExecContext(ctx, `CREATE TEMP TABLE claimed_ords (ord BIGINT PRIMARY KEY)`); err != nil {
		return fmt.Errorf("claimed URLs: %w", err)
	}
	after, found := int64(-1<<62), false
	for {
		var claims []any
		n := 0
		rows, err := tx.QueryContext(ctx, sel, after)
		if err != nil {
			return fmt.Errorf("claimed URLs: %w", err)
		}
		for rows.Next() {
			var ord int64
			var id, u string
			if err := rows.Scan(&ord, &id, &u); err != nil {
				rows.Close()
				return fmt.Errorf("claimed URLs: %w", err)
			}
			if claimedURL(id, u) {
				claims = append(claims, ord)
			}
			after, n = ord, n+1
		}
		if err := rows.Close(); err != nil {
			return fmt.Errorf("claimed URLs: %w", err)
		}
		if n == 0 {
			break
		}
		if len(claims) == 0 {
			continue
		}
		q := `INSERT INTO claimed_ords (ord) VALUES ` + strings.TrimSuffix(strings.Repeat("(?),", len(claims)), ",")
		if _, err := tx.ExecContext(ctx, d.rebind(q), claims...); err != nil {
			return fmt.Errorf("claimed URLs: %w", err)
		}
		found = true
	}
	if found {
		q := `DELETE FROM exact WHERE ord IN (SELECT ord FROM claimed_ords)
	AND NOT EXISTS (SELECT 1 FROM docs WHERE docs.ord = exact.ord AND docs.hash = exact.key)`
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("deleting claimed URLs' keys: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `DROP TABLE claimed_ords`); err != nil {
		return fmt.Errorf("claimed URLs: %w", err)
	}
	return nil
}

// claimedURL reports whether a document of id stored under url may be one
// the watcher of schema version 10 or below stored under the URL its page
// named: its id is an http or https URL (the watcher's id, its item's
// link; a library's ids, "doc-17", and the watcher's "link-<sha>" of a
// long link are not), and url names another page (samePage).
func claimedURL(id, url string) bool {
	return webURL(id) && !samePage(id, url)
}

// webURL reports whether raw is an http or https URL with a host.
func webURL(raw string) bool {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return false
	}
	s := strings.ToLower(u.Scheme)
	return s == "http" || s == "https"
}

// samePage reports whether a and b name one page in two forms: they agree
// but in their schemes, their hosts' case, a leading "www.", a default
// port, a trailing slash, a fragment, the order of their query parameters
// and tracking parameters (utm_*, fbclid, ...: see watch.Canonical, whose
// package the store cannot import).
func samePage(a, b string) bool {
	return pageForm(a) == pageForm(b)
}

// pageForm returns the form of raw that samePage compares; an unparsable
// URL, or one without a host, is returned as it is.
func pageForm(raw string) string {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	scheme := strings.ToLower(u.Scheme)
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	if p := u.Port(); p != "" && !(p == "80" && scheme == "http" || p == "443" && scheme == "https") {
		host += ":" + p
	}
	return host + strings.TrimSuffix(u.EscapedPath(), "/") + "?" + pageQuery(u.RawQuery)
}

// trackingParams are the query parameters, beside utm_*, that say how a
// reader came to a page, not which page it is: watch's list as it stood
// when schema version 11 was made. It is that step's own copy, not shared:
// a step, once released, deletes what it deleted, whatever watch's list
// later holds.
var trackingParams = map[string]bool{
	"fbclid": true, "gclid": true, "dclid": true, "msclkid": true, "yclid": true, "mc_cid": true, "mc_eid": true,
	"igshid": true, "_ga": true, "_gl": true, "ref_src": true, "cmpid": true, "ocid": true, "ito": true,
}

// pageQuery returns raw's parameters but the tracking ones, sorted.
func pageQuery(raw string) string {
	var ps []string
	for _, p := range strings.Split(raw, "&") {
		k, _, _ := strings.Cut(p, "=")
		name, err := url.QueryUnescape(k)
		if err != nil {
			name = k
		}
		name = strings.ToLower(name)
		if p == "" || trackingParams[name] || strings.HasPrefix(name, "utm_") {
			continue
		}
		ps = append(ps, p)
	}
	slices.Sort(ps)
	return strings.Join(ps, "&")
}
