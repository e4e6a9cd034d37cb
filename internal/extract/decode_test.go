package extract

import "testing"

func TestToUTF8(t *testing.T) {
	for _, c := range []struct {
		name, body, contentType, want, enc string
	}{
		{"utf-8 as declared", "<p>café</p>", "text/html; charset=utf-8", "<p>café</p>", "utf-8"},
		{"latin-1 body, header says utf-8", "<p>caf\xe9 cr\xe8me</p>", "text/html; charset=utf-8", "<p>café crème</p>", "windows-1252"},
		{"koi8-r meta, header says utf-8", "<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4</p>", "text/html; charset=utf-8", "<meta charset=koi8-r><p>Привет</p>", "koi8-r"},
		{"utf-8 with one damaged byte", "<p>café crème br\xfbl\xc3\xa9e</p>", "text/html; charset=utf-8", "<p>café crème br\uFFFDlée</p>", "utf-8"},
		{"no declaration, latin-1", "<p>caf\xe9</p>", "", "<p>café</p>", "windows-1252"},
		{"meta latin-1", "<meta charset=iso-8859-1><p>caf\xe9</p>", "", "<meta charset=iso-8859-1><p>café</p>", "windows-1252"},
	} {
		got, enc, err := ToUTF8([]byte(c.body), c.contentType)
		if err != nil || string(got) != c.want || enc != c.enc {
			t.Errorf("%s: got %q (%s, %v), want %q (%s)", c.name, got, enc, err, c.want, c.enc)
		}
	}
}
