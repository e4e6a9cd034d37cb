package sweep

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"

	"github.com/neardup/neardup/internal/eval"
)

// PlotOptions choose what WriteSVG draws.
type PlotOptions struct {
	// Title heads the plot; "" means a title naming the scores drawn.
	Title string
	// BCubed draws B-cubed precision, recall and F1 over clusters instead
	// of pair precision, recall and F1.
	BCubed bool
}

// The plot's geometry in SVG user units: the plot area, then the legend
// to its right.
const (
	svgWidth, svgHeight = 1000, 600
	plotLeft, plotTop   = 70, 60
	plotRight           = 730
	plotBottom          = 530
	legendLeft          = plotRight + 30
)

// palette colours the methods, in curve order; it repeats past its end.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"}

// metric is one of the three lines drawn per method.
type metric struct {
	name  string
	dash  string // stroke-dasharray; "" is solid
	width float64
	value func(*eval.Result, bool) float64
}

var metrics = []metric{
	{"F1", "", 2.6, func(r *eval.Result, b3 bool) float64 { return pick(r, b3, 2) }},
	{"precision", "8 5", 1.6, func(r *eval.Result, b3 bool) float64 { return pick(r, b3, 0) }},
	{"recall", "2 4", 1.8, func(r *eval.Result, b3 bool) float64 { return pick(r, b3, 1) }},
}

// pick returns precision (0), recall (1) or F1 (2) of pairs, or of B-cubed
// when b3 and the truth has clusters.
func pick(r *eval.Result, b3 bool, i int) float64 {
	if b3 && r.Clusters != nil {
		return [3]float64{r.Clusters.BCubedPrecision, r.Clusters.BCubedRecall, r.Clusters.BCubedF1}[i]
	}
	return [3]float64{precision(r), r.Pairs.Recall, r.Pairs.F1}[i]
}

// precision is the pair precision of r, NaN when r predicts no pair: it is
// then undefined, and a plot draws no point for it.
func precision(r *eval.Result) float64 {
	if r.Pairs.Precision == nil {
		return math.NaN()
	}
	return *r.Pairs.Precision
}

// svgPlot maps scores to the plot area.
type svgPlot struct {
	x0, x1 float64 // threshold range shown
	b3     bool
}

func (p svgPlot) x(t float64) float64 {
	return plotLeft + (t-p.x0)/(p.x1-p.x0)*(plotRight-plotLeft)
}

func (p svgPlot) y(v float64) float64 { return plotBottom - v*(plotBottom-plotTop) }

// WriteSVG draws precision, recall and F1 against the threshold: one colour
// per method, one line style per score, axes with a grid, a legend naming
// each method's best F1, a filled dot at the best F1 and a ring at the
// method's default threshold when it lies in the range.
func (r *Result) WriteSVG(w io.Writer, o PlotOptions) error {
	if len(r.Thresholds) == 0 {
		return fmt.Errorf("sweep: nothing to plot")
	}
	p := svgPlot{x0: r.Thresholds[0], x1: r.Thresholds[len(r.Thresholds)-1], b3: o.BCubed && r.Truth.Form != "pairs"}
	if p.x1-p.x0 < 1e-9 {
		p.x0, p.x1 = p.x0-0.05, p.x1+0.05
	}
	title := o.Title
	if title == "" {
		title = "Pair precision, recall and F1 by threshold"
		if p.b3 {
			title = "B-cubed precision, recall and F1 by threshold"
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">`+"\n",
		svgWidth, svgHeight, svgWidth, svgHeight)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", svgWidth, svgHeight)
	fmt.Fprintf(&b, `<text x="%d" y="28" font-size="17" font-weight="bold">%s</text>`+"\n", plotLeft, html.EscapeString(title))
	fmt.Fprintf(&b, `<text x="%d" y="50" font-size="12" fill="#555">%s</text>`+"\n", plotLeft, html.EscapeString(r.subtitle()))
	p.axes(&b)
	for i, c := range r.Curves {
		p.curve(&b, &c, palette[i%len(palette)])
	}
	p.legend(&b, r.Curves)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// subtitle describes the corpus under the title.
func (r *Result) subtitle() string {
	if r.Truth.Form == "pairs" {
		return fmt.Sprintf("%d documents, %d labelled duplicate pairs; each method run once, its pairs re-decided at each threshold",
			r.Documents, r.Truth.Pairs)
	}
	return fmt.Sprintf("%d documents, %d duplicate pairs in the truth; each method run once, its pairs re-decided at each threshold",
		r.Documents, r.Truth.Pairs)
}

// axes draws the grid, the ticks and their labels, and the axis titles.
func (p svgPlot) axes(b *strings.Builder) {
	b.WriteString(`<g stroke="#e4e4e4" stroke-width="1">` + "\n")
	for i := 0; i <= 10; i++ {
		y := p.y(float64(i) / 10)
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>`+"\n", plotLeft, y, plotRight, y)
	}
	step := tickStep(p.x1 - p.x0)
	ticks := xTicks(p.x0, p.x1, step)
	for _, t := range ticks {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>`+"\n", p.x(t), plotTop, p.x(t), plotBottom)
	}
	b.WriteString("</g>\n")
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>`+"\n",
		plotLeft, plotTop, plotRight-plotLeft, plotBottom-plotTop)
	b.WriteString(`<g fill="#333" text-anchor="end">` + "\n")
	for i := 0; i <= 10; i++ {
		fmt.Fprintf(b, `<text x="%d" y="%.1f">%.1f</text>`+"\n", plotLeft-8, p.y(float64(i)/10)+4, float64(i)/10)
	}
	b.WriteString("</g>\n" + `<g fill="#333" text-anchor="middle">` + "\n")
	for _, t := range ticks {
		fmt.Fprintf(b, `<text x="%.1f" y="%d">%s</text>`+"\n", p.x(t), plotBottom+20, strings.TrimSuffix(fmt.Sprintf("%.2f", t), "0"))
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="14">threshold</text>`+"\n", (plotLeft+plotRight)/2, plotBottom+48)
	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="14" transform="rotate(-90 %d %d)">score</text>`+"\n",
		plotLeft-48, (plotTop+plotBottom)/2, plotLeft-48, (plotTop+plotBottom)/2)
	b.WriteString("</g>\n")
}

// tickStep chooses the spacing of the threshold ticks: the smallest of
// 0.01, 0.02, 0.05, 0.1 and 0.2 that gives at most 12 ticks.
func tickStep(span float64) float64 {
	for _, s := range []float64{0.01, 0.02, 0.05, 0.1} {
		if span/s <= 12 {
			return s
		}
	}
	return 0.2
}

// xTicks returns the multiples of step within [x0, x1].
func xTicks(x0, x1, step float64) []float64 {
	var out []float64
	for k := math.Ceil(x0/step - 1e-9); k*step <= x1+1e-9; k++ {
		out = append(out, math.Round(k*step*1e6)/1e6)
	}
	return out
}

// curve draws one method's three lines and its markers.
func (p svgPlot) curve(b *strings.Builder, c *Curve, colour string) {
	for _, m := range metrics {
		var pts []string
		for _, pt := range c.Points {
			if v := m.value(&pt.Result, p.b3); !math.IsNaN(v) {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", p.x(pt.Threshold), p.y(v)))
			}
		}
		dash := ""
		if m.dash != "" {
			dash = fmt.Sprintf(` stroke-dasharray="%s" stroke-linecap="round"`, m.dash)
		}
		fmt.Fprintf(b, `<polyline fill="none" stroke="%s" stroke-width="%.1f"%s points="%s"><title>%s %s</title></polyline>`+"\n",
			colour, m.width, dash, strings.Join(pts, " "), html.EscapeString(c.Name), m.name)
	}
	f1 := metrics[0].value
	best := c.Best(func(r *eval.Result) float64 { return f1(r, p.b3) })
	fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="4.5" fill="%s"><title>%s best F1 %.4f at %.3g</title></circle>`+"\n",
		p.x(best.Threshold), p.y(f1(&best.Result, p.b3)), colour, html.EscapeString(c.Name), f1(&best.Result, p.b3), best.Threshold)
	if d := c.Default; !math.IsNaN(d.Threshold) && d.Threshold >= p.x0-1e-9 && d.Threshold <= p.x1+1e-9 {
		fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="7" fill="none" stroke="%s" stroke-width="1.6"><title>%s default %.3g: F1 %.4f</title></circle>`+"\n",
			p.x(d.Threshold), p.y(f1(&d.Result, p.b3)), colour, html.EscapeString(c.Name), d.Threshold, f1(&d.Result, p.b3))
	}
}

// f1Name names the F1 drawn.
func (p svgPlot) f1Name() string {
	if p.b3 {
		return "B3 F1"
	}
	return "F1"
}

// legend names each method with its colour and best F1, then the line
// styles and markers.
func (p svgPlot) legend(b *strings.Builder, curves []Curve) {
	y := plotTop + 8
	f1 := metrics[0].value
	for i, c := range curves {
		colour := palette[i%len(palette)]
		best := c.Best(func(r *eval.Result) float64 { return f1(r, p.b3) })
		fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="4"/>`+"\n", legendLeft, y, legendLeft+24, y, colour)
		fmt.Fprintf(b, `<text x="%d" y="%d" font-weight="bold">%s</text>`+"\n", legendLeft+32, y+4, html.EscapeString(c.Name))
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="12" fill="#444">best %s %.3f at %.3g</text>`+"\n",
			legendLeft+32, y+20, p.f1Name(), f1(&best.Result, p.b3), best.Threshold)
		def := fmt.Sprintf("default %.3g: %s %.3f", c.Default.Threshold, p.f1Name(), f1(&c.Default.Result, p.b3))
		if math.IsNaN(c.Default.Threshold) {
			def = fmt.Sprintf("its rule: %s %.3f (not drawn)", p.f1Name(), f1(&c.Default.Result, p.b3))
		}
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="12" fill="#444">%s</text>`+"\n", legendLeft+32, y+36, def)
		y += 56
	}
	y += 6
	for _, m := range metrics {
		dash := ""
		if m.dash != "" {
			dash = fmt.Sprintf(` stroke-dasharray="%s" stroke-linecap="round"`, m.dash)
		}
		fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333" stroke-width="%.1f"%s/>`+"\n",
			legendLeft, y, legendLeft+34, y, m.width, dash)
		fmt.Fprintf(b, `<text x="%d" y="%d">%s</text>`+"\n", legendLeft+42, y+4, m.name)
		y += 22
	}
	fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="4.5" fill="#333"/><text x="%d" y="%d">best %s</text>`+"\n",
		legendLeft+17, y, legendLeft+42, y+4, p.f1Name())
	y += 22
	fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="7" fill="none" stroke="#333" stroke-width="1.6"/><text x="%d" y="%d">default threshold</text>`+"\n",
		legendLeft+17, y, legendLeft+42, y+4)
}
