package neardup_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestTypesShowFields: the types of the public API that callers read
// field by field are types of this package, not aliases of internal ones
// (whose fields `go doc` does not show), and each field has a comment.
func TestTypesShowFields(t *testing.T) {
	fset := token.NewFileSet()
	specs := map[string]*ast.TypeSpec{}
	files, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range files {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				specs[ts.Name.Name] = ts
			}
			return true
		})
	}
	for _, name := range []string{"Match", "Stats", "MethodOptions", "Result", "Progress", "Options", "ReadOptions", "RecordError"} {
		ts := specs[name]
		switch {
		case ts == nil:
			t.Errorf("no type %s", name)
			continue
		case ts.Assign.IsValid():
			t.Errorf("%s is an alias", name)
			continue
		}
		var fields []*ast.Field
		switch x := ts.Type.(type) {
		case *ast.StructType:
			fields = x.Fields.List
		case *ast.InterfaceType:
			fields = x.Methods.List
		}
		for i, f := range fields {
			// A field without a comment of its own shares the one of the
			// field before it when declared on the next line.
			if f.Doc == nil && f.Comment == nil && (i == 0 || fields[i-1].Doc == nil ||
				fset.Position(f.Pos()).Line != fset.Position(fields[i-1].End()).Line+1) {
				t.Errorf("%s.%s has no comment", name, f.Names)
			}
		}
	}
}
