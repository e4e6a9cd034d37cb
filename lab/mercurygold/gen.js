// gen.js builds an extraction gold set in the Article Extraction
// Benchmark's layout (ground-truth.json beside html/) from a checkout of
// github:postlight/parser: every site extractor under
// src/extractors/custom/ is run on the fixtures its tests read, with the
// page's URL from the test, and its content (the site's own selectors,
// the parser's cleaning, no generic fallback) becomes the page's
// articleBody, as text with a line per block.
//
//   node gen.js PARSER_CHECKOUT OUT_DIR [--no-captions] [--no-embeds]
//
// --no-captions leaves out figcaptions and elements whose class names a
// caption or a credit, --no-embeds the posts of social networks a page
// embeds (tweets, Instagram and TikTok posts), as golds that hold the
// article's text alone do.
'use strict';

const fs = require('fs');
const path = require('path');
const cheerio = require('cheerio');
const Parser = require('@postlight/parser');

const [repo, out] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const noCaptions = process.argv.includes('--no-captions');
const noEmbeds = process.argv.includes('--no-embeds');
if (!repo || !out) {
  console.error('usage: node gen.js PARSER_CHECKOUT OUT_DIR [--no-captions] [--no-embeds]');
  process.exit(2);
}
const custom = path.join(repo, 'src/extractors/custom');
if (!fs.existsSync(custom)) {
  console.error(`${repo}: no src/extractors/custom/: want a checkout of github:postlight/parser`);
  process.exit(2);
}
const blocks = 'p,div,h1,h2,h3,h4,h5,h6,li,blockquote,pre,figcaption,figure,tr,br,section,article,header,footer,dd,dt,table,ul,ol';

// toText returns the text of the content's HTML, a line per block.
function toText(content) {
  const $ = cheerio.load(content);
  $('script,style,noscript').remove();
  if (noCaptions) {
    $('figcaption,[class*=caption],[class*=Caption],[class*=credit]').remove();
  }
  if (noEmbeds) {
    $('blockquote.twitter-tweet,blockquote.twitter-video,blockquote.instagram-media,blockquote.tiktok-embed').remove();
  }
  $(blocks).each((_, e) => {
    $(e).before('\n');
    $(e).after('\n');
  });
  return $.root().text().replace(/[ \t\r\u00a0]+/g, ' ').replace(/ *\n[ \n]*/g, '\n').trim();
}

// loadExtractor evaluates a site extractor's module (one exported object)
// from the repository's source, so that the extractors are those of the
// checkout, not of the published package.
function loadExtractor(file) {
  const code = fs.readFileSync(file, 'utf8')
    .replace(/^import URL from 'url';/m, "const URL = require('url');")
    .replace(/export const \w+ =/, 'module.exports =');
  const mod = { exports: {} };
  new Function('module', 'require', code)(mod, require);
  return mod.exports;
}

async function main() {
  fs.mkdirSync(path.join(out, 'html'), { recursive: true });
  const truth = {};
  for (const site of fs.readdirSync(custom).sort()) {
    const test = path.join(custom, site, 'index.test.js');
    if (!fs.existsSync(test)) continue;
    try {
      Parser.addExtractor(loadExtractor(path.join(custom, site, 'index.js')));
    } catch (e) {
      console.error(`${site}: extractor: ${e.message}`);
      continue;
    }
    // Each test case names a URL, then the fixture it parses.
    const src = fs.readFileSync(test, 'utf8');
    const cases = /url\s*=\s*['"`]([^'"`]+)['"`][\s\S]*?readFileSync\(\s*['"`]\.\/fixtures\/([^'"`]+)['"`]/g;
    for (let m; (m = cases.exec(src)); ) {
      const [, url, fixture] = m;
      const file = path.join(repo, 'fixtures', fixture);
      if (!fs.existsSync(file)) continue;
      const html = fs.readFileSync(file, 'utf8');
      let result;
      try {
        result = await Parser.parse(url, { html, fallback: false, contentType: 'html' });
      } catch (e) {
        console.error(`${fixture}: ${e.message}`);
        continue;
      }
      const text = result && result.content ? toText(result.content) : '';
      if (text.length < 200) {
        console.error(`${fixture}: the extractor finds no article (${text.length} characters): left out`);
        continue;
      }
      const id = fixture.replace(/\.html$/, '');
      truth[id] = { articleBody: text, url };
      // The fields the site's extractor selects besides the content, under
      // their schema.org names; absent when it selects none.
      if (result.title) truth[id].headline = result.title.trim();
      if (result.author) truth[id].author = result.author.trim();
      if (result.date_published) truth[id].datePublished = result.date_published;
      fs.writeFileSync(path.join(out, 'html', `${id}.html`), html);
    }
  }
  fs.writeFileSync(path.join(out, 'ground-truth.json'), JSON.stringify(truth, null, 1));
  console.error(`${Object.keys(truth).length} pages in ${out}`);
}

main();
