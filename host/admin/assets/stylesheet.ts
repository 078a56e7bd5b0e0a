/**
 * The area's whole stylesheet: plain CSS, served as /admin/assets/admin.css. Colours keep a
 * contrast of at least 4.5:1 for text; every interactive element shows a focus ring.
 */
export const STYLESHEET = `
:root { --ink: #1f2933; --muted: #52606d; --line: #cbd2d9; --panel: #ffffff; --page: #f5f7fa;
  --accent: #1d4ed8; --accent-ink: #ffffff; --danger: #b42318; --ok: #146c2e; --warn-bg: #fff4e5; --warn-ink: #7a3e00; }
* { box-sizing: border-box; }
html { font-size: 100%; }
body { margin: 0; font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--page); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.skip-link { position: absolute; left: -999px; top: 0; background: var(--panel); padding: .5rem 1rem; z-index: 10; }
.skip-link:focus { left: .5rem; }
.site-header { background: #102a43; color: #fff; }
.site-header .bar { max-width: 72rem; margin: 0 auto; padding: .75rem 1rem; display: flex; flex-wrap: wrap; gap: .75rem 1.5rem; align-items: center; }
.brand { font-weight: 700; font-size: 1.125rem; color: #fff; text-decoration: none; }
.site-nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem; margin: 0; padding: 0; }
.site-nav a { display: block; padding: .375rem .75rem; border-radius: .375rem; color: #d9e2ec; text-decoration: none; }
.site-nav a:hover { background: #243b53; color: #fff; }
.site-nav a[aria-current="page"] { background: #fff; color: #102a43; font-weight: 600; }
.header-tools { margin-left: auto; display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; }
.header-tools form { display: flex; gap: .375rem; align-items: center; margin: 0; }
.header-tools label { font-size: .875rem; color: #d9e2ec; }
.header-tools select { max-width: 12rem; }
.who { font-size: .875rem; color: #d9e2ec; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.75rem; margin: 0 0 1rem; }
h2 { font-size: 1.25rem; margin: 0 0 .75rem; }
h3 { font-size: 1.05rem; margin: 1rem 0 .5rem; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: .5rem; padding: 1.25rem; margin: 0 0 1.25rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr)); gap: 1rem; margin: 0 0 1.25rem; padding: 0; list-style: none; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: .5rem; padding: 1rem; }
.card .label { color: var(--muted); font-size: .875rem; margin: 0; }
.card .value { font-size: 1.75rem; font-weight: 700; margin: .25rem 0 0; }
.value-list { list-style: none; margin: .25rem 0 0; padding: 0; }
.value-list .value { font-size: 1.25rem; margin: 0; }
.card .detail { color: var(--muted); font-size: .875rem; margin: .25rem 0 0; }
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; font-size: .9375rem; }
caption { text-align: left; font-weight: 600; padding: 0 0 .5rem; }
th, td { text-align: left; padding: .5rem .625rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: .875rem; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td form { display: inline; margin: 0; }
.actions { display: flex; flex-wrap: wrap; gap: .375rem; }
form.stacked, fieldset.stacked { display: grid; gap: .75rem; max-width: 32rem; }
.field { display: grid; gap: .25rem; }
.panel > .field + .field { margin-top: .75rem; }
fieldset { border: 1px solid var(--line); border-radius: .375rem; margin: 1rem 0 0; padding: .75rem 1rem 1rem; }
.card-element { border: 1px solid var(--muted); border-radius: .375rem; padding: .5rem; min-height: 2.75rem; background: var(--panel); }
.card-element iframe { border: 0; width: 100%; min-height: 2.5rem; display: block; }
legend { font-weight: 600; padding: 0 .25rem; }
.field label { font-weight: 600; }
.hint { color: var(--muted); font-size: .875rem; margin: 0; }
input[type="text"], input[type="search"], input[type="password"], input[type="email"], select, textarea { font: inherit; padding: .5rem .625rem; border: 1px solid #9aa5b1; border-radius: .375rem; background: #fff; color: var(--ink); width: 100%; }
input[aria-invalid="true"] { border-color: var(--danger); }
.inline-form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; }
.inline-form .field { flex: 1 1 14rem; }
.stacked-form { display: grid; gap: .75rem; }
.preview dt { font-weight: 600; margin-top: .75rem; }
.preview dd { margin: .25rem 0 0; }
.preview pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f0f4f8; padding: .75rem; border-radius: .375rem; margin: 0; }
button { font: inherit; cursor: pointer; padding: .5rem .875rem; border-radius: .375rem; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-ink); }
a.button { display: inline-block; padding: .5rem .875rem; border-radius: .375rem; background: var(--accent); color: var(--accent-ink); text-decoration: none; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--danger); border-color: var(--danger); }
button.small { padding: .25rem .625rem; font-size: .875rem; }
.site-header button { background: transparent; color: #fff; border-color: #9fb3c8; }
.notice { border-radius: .5rem; padding: .75rem 1rem; margin: 0 0 1.25rem; border: 1px solid; }
.notice.ok { background: #e7f6ec; border-color: #8fd3a6; color: var(--ok); }
.notice.error { background: #fdecea; border-color: #f3a59c; color: var(--danger); }
.notice.warn { background: var(--warn-bg); border-color: #f5c27a; color: var(--warn-ink); }
.field-error { color: var(--danger); font-size: .875rem; margin: 0; }
.status { display: inline-block; padding: .125rem .5rem; border-radius: 1rem; font-size: .8125rem; font-weight: 600; border: 1px solid; }
.status.enabled { color: var(--ok); border-color: #8fd3a6; background: #e7f6ec; }
.status.disabled, .status.available, .status.off { color: var(--muted); border-color: var(--line); background: #f5f7fa; }
.status.warn { color: var(--warn-ink); border-color: #f5c27a; background: var(--warn-bg); }
.status.failed { color: var(--danger); border-color: #f3a59c; background: #fdecea; }
.secret-box { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.secret-box input { flex: 1 1 20rem; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; }
.sign-in { max-width: 26rem; margin: 4rem auto; }
.sign-in h1 { font-size: 1.5rem; }
.setup pre { background: #102a43; color: #f0f4f8; padding: .75rem; border-radius: .375rem; overflow-x: auto; white-space: pre-wrap; }
details summary { cursor: pointer; color: var(--accent); }
.filters ul, .tabs ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem; margin: 0 0 1rem; padding: 0; }
.filters a, .tabs a { display: block; padding: .375rem .75rem; border: 1px solid var(--line); border-radius: .375rem; background: var(--panel); text-decoration: none; }
.filters a[aria-current="page"], .tabs a[aria-current="page"] { background: var(--accent); border-color: var(--accent); color: var(--accent-ink); }
.pager p { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; }
.totals { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: .75rem; list-style: none; padding: 0; margin: 0 0 1rem; }
.totals li { background: var(--panel); border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem; }
.totals .value { font-size: 1.25rem; font-weight: 600; display: block; overflow-wrap: anywhere; }
.live-total { margin: .75rem 0 0; }
.live-total output { font-size: 1.25rem; font-weight: 600; margin-left: .25rem; }
.grid-form { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: .75rem 1rem; }
.pricing-row + .pricing-row { border-top: 1px solid var(--line); margin-top: .75rem; padding-top: .75rem; }
input[type="number"], input[type="date"] { font: inherit; padding: .5rem .625rem; border: 1px solid #9aa5b1; border-radius: .375rem; background: #fff; color: var(--ink); width: 100%; }
.empty { background: var(--panel); border: 1px dashed var(--line); border-radius: .5rem; padding: 1rem; }
.checks { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; }
.checks label { font-weight: 400; display: flex; gap: .375rem; align-items: center; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 40rem) {
  main { padding: 1rem .75rem 2rem; }
  h1 { font-size: 1.4rem; }
  .header-tools { margin-left: 0; width: 100%; }
  .header-tools form { flex-wrap: wrap; max-width: 100%; }
  .header-tools select { max-width: 100%; min-width: 0; flex: 1 1 8rem; }
  .card .value { font-size: 1.4rem; }
  .panel { padding: 1rem .75rem; }
  /* A phone shows each table row as a card: every cell, and each row's buttons, on the screen. */
  .table-wrap table, .table-wrap tbody, .table-wrap tr, .table-wrap td, .table-wrap th { display: block; width: auto; }
  .table-wrap thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .table-wrap tr { border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .75rem; margin: 0 0 .75rem; }
  .table-wrap td, .table-wrap th { border: 0; padding: .125rem 0; overflow-wrap: anywhere; }
  .table-wrap td.num, .table-wrap th.num { text-align: left; }
  .table-wrap td form { display: block; margin-top: .375rem; }
  /* ... and each cell keeps its column's label (components/data-table.ts). */
  .table-wrap td[data-label]::before { content: attr(data-label); display: block; font-size: .75rem; font-weight: 600; color: var(--muted); }
  .secret-box input { flex-basis: 100%; min-width: 0; }
  code, .mono { overflow-wrap: anywhere; }
}
`;
