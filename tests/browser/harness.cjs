// The browser-test harness: pages of webrank opened in a real browser, Debian's headless
// Chromium driven by playwright-core (web/node_modules, installed by scripts/install-deps.sh;
// Playwright never downloads a browser here). Shared by every browser test (tests/browser/*.test.cjs),
// which CTest runs with node:
//
//   node tests/browser/NAME.test.cjs --webrank build/webrank --artifacts build/browser-artifacts
//
// A test file calls run(async t => { ... }): `t.browser()` starts Chromium with a fresh profile
// (removed afterwards), `t.page()` opens a page that fails the test on a console error, an
// uncaught exception, a Content-Security-Policy violation or a request that leaves the machine;
// `t.screenshot(page, name)` saves artifacts/NAME.png; `t.serve(dir)` serves a folder on
// 127.0.0.1 (python3 -m http.server on a free port, stopped by its PID); `t.webrank(...args)`
// runs the binary; check(...) asserts; inkedPixels(page, selector) counts a
// canvas's drawn pixels.
// Exit status: 0 passed, 1 failed, 77 skipped (no Chromium: CTest's SKIP_RETURN_CODE).
'use strict';

const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const {createRequire} = require('module');

const REPO = path.resolve(__dirname, '..', '..');
const CHROMIUM = process.env.WEBRANK_CHROMIUM || '/usr/bin/chromium';
// No GPU, no network side traffic (updates, sync, QUIC probes), no first-run dialogs.
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
               '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function argument(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
}

function skip(reason) {
  // The line scripts/skipped_tests.py collects for the summary of scripts/test.sh.
  process.stderr.write(`webrank-test skipped: ${path.basename(process.argv[1])}: ${reason}\n`);
  process.exit(77);
}

function playwright() {
  const fromWeb = createRequire(path.join(REPO, 'web', 'package.json'));
  try {
    return fromWeb('playwright-core');
  } catch (e) {
    throw new Error('playwright-core is not installed in web/node_modules: run bash scripts/install-deps.sh');
  }
}

class TestContext {
  constructor() {
    this.webrankPath = path.resolve(argument('--webrank', path.join(REPO, 'build', 'webrank')));
    this.artifacts = path.resolve(argument('--artifacts', path.join(REPO, 'build', 'browser-artifacts')));
    fs.mkdirSync(this.artifacts, {recursive: true});
    this.scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'webrank-browser-'));
    this.cleanups = [];
    this.problems = [];
  }

  // Runs webrank; throws with its stderr when it fails.
  webrank(...args) {
    // Verification records go to the test's own cache, as in the CLI suites (tests/cli/wrcli.py).
    const env = {...process.env, XDG_CACHE_HOME: path.join(this.scratch, 'cache')};
    const r = childProcess.spawnSync(this.webrankPath, args, {encoding: 'utf8', cwd: this.scratch,
                                                              env, timeout: 60000});
    if (r.status !== 0) {
      throw new Error(`webrank ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    }
    return r.stdout;
  }

  async browser() {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'webrank-chromium-'));
    const context = await playwright().chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: {width: 1100, height: 900},
    });
    this.cleanups.push(async () => {
      await context.close();
      fs.rmSync(profile, {recursive: true, force: true});
    });
    this.context = context;
    return context;
  }

  // A page that records console errors, uncaught exceptions, Content-Security-Policy violations
  // (the page's securitypolicyviolation events) and requests to anywhere but this machine (file:,
  // data:, blob:, 127.0.0.1) as problems, which fail the test at its end.
  async page() {
    const context = this.context || await this.browser();
    const page = await context.newPage();
    await page.exposeBinding('__webrankCspViolation', (source, text) =>
      this.problems.push(`CSP violation: ${text}`));
    await page.addInitScript(() => document.addEventListener('securitypolicyviolation', e =>
      window.__webrankCspViolation(`${e.violatedDirective} blocked ${e.blockedURI || 'inline code'}` +
                                   ` at ${e.sourceFile || e.documentURI}:${e.lineNumber}`)));
    page.on('console', m => { if (m.type() === 'error') this.problems.push(`console error: ${m.text()}`); });
    page.on('pageerror', e => this.problems.push(`uncaught exception: ${e.message}`));
    page.on('request', r => {
      const url = new URL(r.url());
      const local = ['file:', 'data:', 'blob:', 'about:'].includes(url.protocol) || url.hostname === '127.0.0.1';
      if (!local) this.problems.push(`request leaves the machine: ${r.url()}`);
    });
    return page;
  }

  async screenshot(target, name) {
    const file = path.join(this.artifacts, `${name}.png`);
    await target.screenshot({path: file, ...(target.goto ? {fullPage: true} : {})});
    return file;
  }

  // Serves `dir` on 127.0.0.1 on a free port; stopped by its PID when the test ends.
  async serve(dir) {
    const server = childProcess.spawn('/usr/bin/python3', ['-u', '-m', 'http.server', '--bind', '127.0.0.1', '0'],
                                      {cwd: dir, stdio: ['ignore', 'pipe', 'pipe']});
    this.cleanups.push(async () => stop(server.pid));
    const port = await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 10000);
      server.stdout.on('data', d => {
        out += d;
        const m = /port (\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(+m[1]);
        }
      });
      server.on('exit', code => reject(new Error(`server exited ${code}: ${out}`)));
    });
    return `http://127.0.0.1:${port}`;
  }

  async finish() {
    for (const c of this.cleanups.reverse()) await c();
    fs.rmSync(this.scratch, {recursive: true, force: true});
  }
}

// Stops a process by its PID: SIGTERM, then SIGKILL if it is still there after 2 s.
async function stop(pid) {
  try { process.kill(pid, 'SIGTERM'); } catch (e) { return; }
  for (let i = 0; i < 20; ++i) {
    await new Promise(r => setTimeout(r, 100));
    try { process.kill(pid, 0); } catch (e) { return; }
  }
  try { process.kill(pid, 'SIGKILL'); } catch (e) { /* gone */ }
}

// Pixels with ink (alpha > 0) on the canvas `selector` of `page`: a chart that was drawn has
// hundreds; an empty or unsized canvas none.
async function inkedPixels(page, selector) {
  return page.$eval(selector, canvas => {
    if (!canvas.width || !canvas.height) return 0;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) n += data[i] > 0;
    return n;
  });
}

// Runs the named steps of one test file in order; the first failure ends it.
async function run(steps) {
  if (!fs.existsSync(CHROMIUM)) skip(`${CHROMIUM} not found (bash scripts/install-deps.sh installs chromium)`);
  const t = new TestContext();
  let failed = false;
  const started = Date.now();
  try {
    for (const [name, step] of Object.entries(steps)) {
      const t0 = Date.now();
      await step(t);
      check(t.problems.length === 0, `${name}: ${t.problems.join('; ')}`);
      console.log(`ok   ${name} (${Date.now() - t0} ms)`);
    }
  } catch (e) {
    failed = true;
    console.log(`FAIL ${e.stack || e}`);
  } finally {
    await t.finish().catch(e => console.log(`cleanup: ${e}`));
  }
  console.log(`${failed ? 'FAILED' : 'passed'} in ${Date.now() - started} ms; screenshots in ${t.artifacts}`);
  process.exit(failed ? 1 : 0);
}

module.exports = {run, check, stop, inkedPixels};
