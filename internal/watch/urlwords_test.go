package watch

import (
	"testing"
)

func TestSlug(t *testing.T) {
	for raw, want := range map[string]string{
		"https://a.example/news/storm-hits-the-coast-12345":   "storm-hits-the-coast",
		"https://a.example/news/Storm-Hits-The-Coast-99.html": "storm-hits-the-coast",
		"https://b.example/2026/11/03/storm_hits_the_coast/":  "storm-hits-the-coast",
		"https://b.example/world/storm-hits-the-coast/881234": "storm-hits-the-coast",
		"https://b.example/a/storm-hits-the-coast.amp?id=3#x": "storm-hits-the-coast",
		// Regression: an id with a page's extension after the slug gave
		// none, though watch.md names this very address.
		"https://b.example/world/storm_hits_the_coast/77.html":  "storm-hits-the-coast",
		"https://b.example/world/storm-hits-the-coast/77.htm?x": "storm-hits-the-coast",
		"https://a.example/news/index.html":                     "",
		"https://a.example/news":                                "",
		"https://a.example/":                                    "",
		"https://a.example/news/12345":                          "",
		"https://a.example/news/two-words-2026":                 "",
		"https://a.example/%E0%A4%AC%E0%A4%BE%E0%A4%A2-%E0%A4%B8%E0%A5%87-%E0%A4%A4%E0%A4%AC%E0%A4%BE%E0%A4%B9%E0%A5%80": "बाढ-से-तबाही",
		"urn:uuid:storm-hits-the-coast": "",
		"not a url at all":              "",
	} {
		if got := Slug(raw); got != want {
			t.Errorf("Slug(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestGalleryURL(t *testing.T) {
	w := &Watcher{o: Options{GalleryWords: DefaultGalleryWords}}
	for link, want := range map[string]string{
		"https://x.example/news/photos/flood-2026":               "photos",
		"https://x.example/news/in-pictures-photos-of-the-flood": "photos",
		"https://x.example/video/2026/11/storm":                  "video",
		"https://x.example/news/gallery":                         "gallery",
		"https://x.example/news/gallery-photos-3.html":           "gallery",
		"https://x.example/pics/2026/flood":                      "pics",
		"https://x.example/news/flood_pics.html":                 "pics",
		"https://x.example/VIDEOS/storm":                         "videos",
		"https://x.example/news/storm?video=1":                   "",
		"https://x.example/news/photo-finish-in-the-election":    "",
		"https://x.example/news/videotape-evidence-heard":        "",
	} {
		if got := w.galleryURL(link); got != want {
			t.Errorf("%s: %q, want %q", link, got, want)
		}
	}
	none := &Watcher{o: Options{GalleryWords: []string{}}}
	if got := none.galleryURL("https://x.example/gallery/1"); got != "" {
		t.Errorf("no gallery words: %q", got)
	}
}

func TestGalleryText(t *testing.T) {
	w := &Watcher{o: Options{GalleryTextWords: DefaultGalleryTextWords}}
	for text, want := range map[string]string{
		"Gallery: the week in pictures":      "gallery",
		"  GALLERIES - Storm hits the coast": "galleries",
		"Video game makers met on Monday.":   "",
		"Pictures of the flood, day by day.": "",
		"The gallery opened on Monday.":      "",
		"Videographers gathered at the port": "",
		"":                                   "",
	} {
		if got := w.galleryText(text); got != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
}
