package watch

import (
	"net/url"
	"slices"
	"strings"
	"unicode"
)

// MinSlugWords is the fewest words an article slug has: fewer say too
// little to name one article ("news", "index.html", "live-updates").
const MinSlugWords = 3

// pageExtensions are the file extensions a slug's last word may carry.
var pageExtensions = []string{"html", "htm", "shtml", "php", "asp", "aspx", "jsp", "cms", "ece", "amp"}

// Slug returns the article slug of a page's URL: the words of its last path
// segment that has a letter, lower-cased and joined by "-", without words
// of digits alone (the numeric ids a site adds) or a page extension:
// "https://a.example/news/Storm-hits-the-coast-20261103.html" and
// "https://b.example/storm_hits_the_coast/991" both give
// "storm-hits-the-coast", and so does ".../storm_hits_the_coast/77.html":
// a segment of an id and an extension alone is passed over. A slug of
// fewer than MinSlugWords words is "".
func Slug(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	segs := strings.Split(u.Path, "/")
	for i := len(segs) - 1; i >= 0; i-- {
		if !strings.ContainsFunc(segs[i], unicode.IsLetter) {
			continue
		}
		words := urlWords(segs[i])
		if n := len(words); n > 0 && slices.Contains(pageExtensions, words[n-1]) {
			words = words[:n-1]
		}
		words = slices.DeleteFunc(words, func(w string) bool { return !strings.ContainsFunc(w, unicode.IsLetter) })
		if len(words) == 0 {
			continue // an id and a page's extension ("77.html"): the slug is before it
		}
		if len(words) < MinSlugWords {
			return ""
		}
		return strings.Join(words, "-")
	}
	return ""
}

// urlWords splits a path segment into lower-case words at "-", "_", "."
// and white space.
func urlWords(seg string) []string {
	return strings.FieldsFunc(strings.ToLower(seg), func(r rune) bool {
		return r == '-' || r == '_' || r == '.' || unicode.IsSpace(r)
	})
}

// galleryURL returns the gallery word a page's URL holds: a path segment
// that is one ("/video/2026/storm") or a word of one ("/news/gallery-photos-3.html",
// "/pics_of_the_week"); "" when it holds none.
func (w *Watcher) galleryURL(link string) string {
	u, err := url.Parse(link)
	if err != nil {
		return ""
	}
	for _, seg := range strings.Split(strings.ToLower(u.Path), "/") {
		if slices.Contains(w.o.GalleryWords, seg) {
			return seg
		}
		for _, word := range urlWords(seg) {
			if slices.Contains(w.o.GalleryWords, word) {
				return word
			}
		}
	}
	return ""
}

// galleryText returns the gallery word a page's text starts with
// ("Gallery: the week in pictures", "Video - ..."); "" when none.
func (w *Watcher) galleryText(text string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(text), " ")
	first = strings.ToLower(strings.TrimRightFunc(first, func(r rune) bool { return !unicode.IsLetter(r) }))
	if first != "" && slices.Contains(w.o.GalleryTextWords, first) {
		return first
	}
	return ""
}
