package corpus

// Page builders for the tests of package corpus_test.
var (
	SitePageForTest    = sitePage
	ReprintPageForTest = reprintPage
	WARCForTest        = testWARC
	StoryForTest       = storyParagraphs
	OtherForTest       = otherParagraphs
	GalleryForTest     = galleryPage
)
