// Renders litmus's HTML report in headless Chromium through playwright-core
// and checks what the mutation-testing-elements app shows inside its
// shadow DOM: the file names, the mutation score, and a surviving
// mutant's diff.  Writes a screenshot.  Exit 0 when every check holds.
//
// usage: node lib_report_browser.js NPM_DIR CHROMIUM REPORT.html SHOT.png
//        EXPECT.json
// EXPECT.json: {"files": [paths], "score": "97.50", "survivor": {"file":
// path, "line": N, "column": N, "original_line": text, "mutated_line":
// text}}
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const [npmDir, chromium, report, shot, expectFile] = process.argv.slice(2);
const { chromium: browserType } = require(
  path.join(npmDir, 'node_modules', 'playwright-core'));
const expect = JSON.parse(fs.readFileSync(expectFile, 'utf8'));

function check(cond, what) {
  if (!cond) throw new Error('check failed: ' + what);
  console.log('ok: ' + what);
}

// Text of a node and every open shadow root below it, in document order.
const deepText = `(root) => {
  const out = [];
  const walk = (n) => {
    if (n.nodeType === Node.TEXT_NODE) { out.push(n.textContent); return; }
    if (n.shadowRoot) walk(n.shadowRoot);
    for (const c of n.childNodes) walk(c);
  };
  walk(root);
  return out.join(' ').replace(/\\s+/g, ' ');
}`;

(async () => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'litmus-chromium-'));
  // A fresh profile; without the background-networking flags Chromium
  // stalls on refused connections where there is no network.
  const context = await browserType.launchPersistentContext(profile, {
    executablePath: chromium,
    headless: true,
    timeout: 60000,
    viewport: { width: 1280, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update',
           '--disable-sync'],
  });
  let code = 0;
  try {
    const page = await context.newPage();
    const requests = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('file:') && !r.url().startsWith('data:'))
        requests.push(r.url());
    });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto('file://' + path.resolve(report), { waitUntil: 'load' });
    // The metrics table lists every file with its score once the app
    // has read the report (the file picker holds hidden copies).
    const table = page.locator('mte-metrics-table');
    for (const f of expect.files) {
      await table.locator('a', { hasText: path.basename(f) }).first()
        .waitFor({ state: 'visible', timeout: 30000 });
      check(true, 'file listed: ' + path.basename(f));
    }
    const top = await page.evaluate(`(${deepText})(document.querySelector('mutation-test-report-app'))`);
    check(top.includes(expect.score), 'score shown: ' + expect.score);
    check(errors.length === 0, 'no page error: ' + errors.join('; '));
    await page.screenshot({ path: shot, fullPage: true });
    console.log('screenshot: ' + shot);

    // Open the survivor's file, then the survivor: the diff rows show the
    // original line and the mutated one.
    const s = expect.survivor;
    await table.locator('a', { hasText: path.basename(s.file) }).first().click();
    const file = page.locator('mte-file');
    const dot = file.locator('svg', {
      has: page.locator('title', { hasText: 'Survived' }) });
    await dot.first().waitFor({ timeout: 30000 });
    await dot.first().click();
    await file.locator('tr.diff-new').first().waitFor({ timeout: 30000 });
    const oldLine = await file.locator('tr.diff-old').first().innerText();
    const newLine = await file.locator('tr.diff-new').first().innerText();
    console.log('diff -: ' + oldLine.replace(/\s+/g, ' ').trim());
    console.log('diff +: ' + newLine.replace(/\s+/g, ' ').trim());
    const norm = (t) => t.replace(/\s+/g, ' ').trim();
    check(norm(oldLine).includes(norm(s.original_line)),
          'diff shows the original line: ' + s.original_line);
    check(norm(newLine).includes(norm(s.mutated_line)),
          'diff shows the mutated line: ' + s.mutated_line);
    check(!norm(oldLine).includes(norm(s.mutated_line)),
          'the original line is not the mutated one');
    const drawer = await page.evaluate(`(${deepText})(document.querySelector('mutation-test-report-app'))`);
    check(drawer.replace(/\s+/g, '').includes(
            'Survived(' + s.line + ':' + s.column + ')'),
          'the drawer names the survivor at ' + s.line + ':' + s.column);
    const shot2 = shot.replace(/\.png$/, '-survivor.png');
    await page.screenshot({ path: shot2, fullPage: false });
    console.log('screenshot: ' + shot2);
    check(requests.length === 0, 'no network request: ' + requests.join(' '));
  } catch (e) {
    console.error(String(e && e.stack || e));
    code = 1;
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  process.exit(code);
})();
