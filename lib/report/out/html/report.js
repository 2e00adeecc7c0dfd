/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapreport --html: the flame graph (embedded by lib/report/html.c).
 *
 * Data: the JSON script element with id "fg-data" holds
 *   {"total": samples, "names": [...], "nodes": [name, value, depth, ...]}
 * with the nodes in depth-first order, children after their parent, the
 * root ("all") first.  The graph is drawn as absolutely placed <div>s,
 * root at the top; only frames at least half a pixel wide are made.
 * Click a frame to zoom to it, the root (or Reset) to zoom out; the
 * search box takes a substring or /regex/ and highlights matching frames,
 * with the share of samples under them (a page address ending in
 * "#fg-search=TEXT" starts with that search).  Every string is set with
 * textContent, never as HTML.
 *
 * Function view ("fn-data": per top function its lines, callers and
 * callees; the hottest files' source): a click on a function in a table
 * or in the flame graph shows who calls it and whom it calls, and its
 * source with self and total samples per line, scrolled to the hottest
 * line.
 *
 * Narrowing ("nr-data": samples per flame-graph frame, thread and time
 * bin as [frame, thread, bin, samples, ...]): the select control picks a
 * process or a thread, a drag on the time strip a range of bins; the
 * flame graph, the tables of functions (recomputed from the graph's
 * frames: self from where stacks end, total once per stack), the
 * process and thread tables and the time strip follow.  An address
 * ending in "#tid=N", "#pid=N", "#time=FROM:TO" (seconds), "#fn=NAME"
 * (as a click on that function in the tables) or several of them joined
 * by "&" starts there.
 */
(function () {
	'use strict';
	var ROW = 18;
	var ROWS = 25; /* callers and callees shown, as the page's data */

	function $(id) { return document.getElementById(id); }

	function fmt(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }

	function pct(a, b) { return b > 0 ? (100 * a / b).toFixed(2) + '%' : '0%'; }

	/* A warm colour from the name, stable between runs. */
	function colour(name) {
		var h = 0;
		for (var i = 0; i < name.length; i++)
			h = (h * 31 + name.charCodeAt(i)) >>> 0;
		var hue = 8 + h % 42, light = 58 + (h >>> 8) % 14;
		return 'hsl(' + hue + ',85%,' + light + '%)';
	}

	function load() {
		var el = $('fg-data'), box = $('fg');
		if (!el || !box)
			return null;
		var d = JSON.parse(el.textContent);
		var raw = d.nodes, n = raw.length / 3;
		var g = {
			total: d.total, names: d.names, n: n,
			/* labels: the short names, or the full ones */
			labels: d.short || d.names,
			name: new Int32Array(n), value: new Float64Array(n),
			depth: new Int32Array(n), parent: new Int32Array(n),
			x: new Float64Array(n), end: new Int32Array(n),
			maxDepth: 0
		};
		/* x: where a frame starts, in samples; cursor: where its next
		 * child goes */
		var stack = [];
		for (var i = 0; i < n; i++) {
			g.name[i] = raw[3 * i];
			g.value[i] = raw[3 * i + 1];
			var dep = g.depth[i] = raw[3 * i + 2];
			if (dep > g.maxDepth)
				g.maxDepth = dep;
			var p = dep > 0 ? stack[dep - 1] : -1;
			g.parent[i] = p;
			stack[dep] = i;
		}
		g.value0 = new Float64Array(g.value);
		layout(g);
		/* end[i]: one past the last node of i's subtree */
		for (i = n - 1; i >= 0; i--)
			g.end[i] = i + 1;
		for (i = n - 1; i > 0; i--)
			if (g.end[i] > g.end[g.parent[i]])
				g.end[g.parent[i]] = g.end[i];
		return g;
	}

	/* x[i] from the values: children packed left to right */
	function layout(g) {
		var cursor = new Float64Array(g.n);
		for (var i = 0; i < g.n; i++) {
			var p = g.parent[i];
			g.x[i] = p < 0 ? 0 : cursor[p];
			if (p >= 0)
				cursor[p] += g.value[i];
			cursor[i] = g.x[i];
		}
		g.total = g.value[0];
	}

	function FlameGraph(g, onPick) {
		var box = $('fg'), detail = $('fg-detail'), status = $('fg-status');
		var search = $('fg-search'), reset = $('fg-reset');
		var zoom = 0, match = null;

		function describe(i) {
			var s = g.names[g.name[i]] + '  ' + fmt(g.value[i]) +
				' samples, ' + pct(g.value[i], g.total) + ' of all';
			if (zoom > 0)
				s += ', ' + pct(g.value[i], g.value[zoom]) + ' of the zoomed frame';
			return s;
		}

		function draw() {
			var width = box.clientWidth || 1000;
			var z0 = g.x[zoom], zv = g.value[zoom] || 1;
			var scale = width / zv;
			var frag = document.createDocumentFragment(), made = 0;
			/* ancestors of the zoomed frame: full width, dimmed */
			for (var a = g.parent[zoom]; a >= 0; a = g.parent[a]) {
				frag.appendChild(frame(a, 0, width, true));
				made++;
			}
			var stop = g.end[zoom];
			for (var i = zoom; i < stop; i++) {
				var w = g.value[i] * scale;
				if (w < 0.5) {
					i = g.end[i] - 1; /* skip the subtree */
					continue;
				}
				frag.appendChild(frame(i, (g.x[i] - z0) * scale, w, false));
				made++;
			}
			box.textContent = '';
			box.style.height = ((g.maxDepth + 1) * ROW + 2) + 'px';
			box.appendChild(frag);
			box.setAttribute('data-fg-nodes', String(made));
			box.setAttribute('data-fg-total', String(g.value[0]));
		}

		function frame(i, left, w, dim) {
			var d = document.createElement('div');
			d.className = 'fr' + (dim ? ' dim' : '') +
				(match && match[i] ? ' hl' : '');
			d.style.left = left.toFixed(1) + 'px';
			d.style.width = Math.max(w - 1, 0.5).toFixed(1) + 'px';
			d.style.top = (g.depth[i] * ROW) + 'px';
			var nm = g.names[g.name[i]];
			d.style.background = colour(nm);
			if (w > 28)
				d.textContent = g.labels[g.name[i]];
			d.title = describe(i);
			d.setAttribute('data-i', String(i));
			return d;
		}

		function setZoom(i) {
			zoom = i;
			reset.disabled = zoom === 0;
			draw();
		}

		function find(text) {
			if (!text) {
				match = null;
				status.textContent = '';
				draw();
				return;
			}
			var re = null;
			if (text.length > 2 && text[0] === '/' && text[text.length - 1] === '/') {
				try {
					re = new RegExp(text.slice(1, -1), 'i');
				} catch (e) {
					status.textContent = 'not a regular expression';
					return;
				}
			}
			var lower = text.toLowerCase();
			var hit = new Uint8Array(g.names.length), any = false;
			for (var k = 0; k < g.names.length; k++) {
				var s = g.names[k];
				if (re ? re.test(s) : s.toLowerCase().indexOf(lower) >= 0) {
					hit[k] = 1;
					any = true;
				}
			}
			match = new Uint8Array(g.n);
			var covered = 0, frames = 0;
			for (var i = 1; i < g.n; i++) {
				if (!hit[g.name[i]])
					continue;
				match[i] = 1;
				frames++;
				/* count a subtree once: skip matches below this one */
				var outer = true;
				for (var a = g.parent[i]; a > 0; a = g.parent[a])
					if (match[a]) {
						outer = false;
						break;
					}
				if (outer)
					covered += g.value[i];
			}
			status.textContent = any
				? 'Matched: ' + pct(covered, g.total) + ' of samples (' +
				  fmt(covered) + ' of ' + fmt(g.total) + '), ' + fmt(frames) + ' frames'
				: 'Matched: nothing';
			status.setAttribute('data-matched', String(covered));
			draw();
		}

		box.addEventListener('click', function (ev) {
			var t = ev.target.closest ? ev.target.closest('.fr') : null;
			if (!t)
				return;
			var i = +t.getAttribute('data-i');
			setZoom(i === zoom ? Math.max(g.parent[i], 0) : i);
			if (onPick && g.depth[i] >= 2)
				onPick(g.names[g.name[i]]);
		});
		box.addEventListener('mouseover', function (ev) {
			var t = ev.target.closest ? ev.target.closest('.fr') : null;
			if (t)
				detail.textContent = describe(+t.getAttribute('data-i'));
		});
		reset.addEventListener('click', function () { setZoom(0); });
		var timer = 0;
		search.addEventListener('input', function () {
			clearTimeout(timer);
			timer = setTimeout(function () { find(search.value.trim()); }, 120);
		});
		var lastWidth = box.clientWidth;
		window.addEventListener('resize', function () {
			if (box.clientWidth !== lastWidth) {
				lastWidth = box.clientWidth;
				draw();
			}
		});
		reset.disabled = true;
		draw();
		this.find = find;
		this.zoom = setZoom;
		/* after the values changed (narrowing) */
		this.redraw = function () {
			layout(g);
			if (g.value[zoom] <= 0)
				zoom = 0;
			reset.disabled = zoom === 0;
			if (search.value.trim())
				find(search.value.trim());
			else
				draw();
		};
	}

	function el(tag, cls, text) {
		var e = document.createElement(tag);
		if (cls)
			e.className = cls;
		if (text !== undefined)
			e.textContent = text;
		return e;
	}

	function cell(tr, text, cls) {
		var td = el('td', cls, text);
		tr.appendChild(td);
		return td;
	}

	function json(id) {
		var e = $(id);
		return e ? JSON.parse(e.textContent) : null;
	}

	/* ---- the function view ---- */

	function FunctionView(d) {
		var box = $('fn-view'), byName = {};
		for (var k = 0; k < d.funcs.length; k++)
			if (!byName.hasOwnProperty(d.funcs[k].name))
				byName[d.funcs[k].name] = d.funcs[k];

		function calls(title, rows, more, rest, total) {
			var wrap = el('div', 'fn-calls');
			wrap.appendChild(el('h3', null, title));
			if (!rows.length) {
				wrap.appendChild(el('p', 'nodata', 'None.'));
				return wrap;
			}
			var t = el('table', 'calls'), tb = el('tbody');
			var h = el('thead'), hr = el('tr');
			hr.appendChild(el('th', null, 'Function'));
			hr.appendChild(el('th', 'n', 'Samples'));
			hr.appendChild(el('th', 'n', 'Share'));
			h.appendChild(hr);
			t.appendChild(h);
			for (var i = 0; i < rows.length; i++) {
				var tr = el('tr');
				cell(tr, rows[i][0], 'f');
				cell(tr, fmt(rows[i][1]), 'n');
				cell(tr, pct(rows[i][1], total), 'n');
				tb.appendChild(tr);
			}
			if (more) {
				var mr = el('tr');
				cell(mr, fmt(more) + ' more', 'nodata');
				cell(mr, fmt(rest), 'n');
				cell(mr, '', 'n');
				tb.appendChild(mr);
			}
			t.appendChild(tb);
			wrap.appendChild(t);
			return wrap;
		}

		function lineRow(tb, f, l, code, num) {
			var tr = el('tr', 'src');
			if (l) {
				var hot = f.code > 0 && l[2] * 10 >= f.code;
				if (hot)
					tr.className += ' hot';
				tr.setAttribute('data-line', String(l[1]));
				tr.setAttribute('data-self', String(l[2]));
				tr.setAttribute('data-total', String(l[3]));
				cell(tr, l[2] ? fmt(l[2]) : '', 'n');
				cell(tr, l[3] ? fmt(l[3]) : '', 'n');
			} else {
				cell(tr, '', 'n');
				cell(tr, '', 'n');
			}
			cell(tr, num > 0 ? String(num) : (l ? '?' : '...'), 'n ln');
			var c = cell(tr, code === null ? '' : code, 'code');
			if (l && l[4])
				c.appendChild(el('span', 'inl', ' [inlined ' + l[4] + ']'));
			tb.appendChild(tr);
			return tr;
		}

		/* one file's lines of f, with the code around them when the
		 * source is embedded; returns the hottest row */
		function fileBlock(f, fi, lines) {
			var file = fi >= 0 ? d.files[fi] : null;
			var wrap = el('div', 'fn-file');
			var head = el('p', 'fn-path');
			head.textContent = file ? (file.path || file.name)
				: '(no line information for this code)';
			wrap.appendChild(head);
			if (file && file.why)
				wrap.appendChild(el('p', 'note', 'Source not shown: ' + file.why +
					(file.path ? '' : '; give --source-dir or --source-map')));
			if (file && file.cut)
				wrap.appendChild(el('p', 'note', 'Only the first ' + fmt(file.cut) +
					' bytes of the file are embedded (mapreport --html-source-max).'));
			var text = file && file.text ? file.text : null;
			var scroller = el('div', 'srcbox'), t = el('table', 'source');
			var h = el('thead'), hr = el('tr');
			['Self', 'Total', 'Line', text ? 'Source' : ''].forEach(function (x, k) {
				hr.appendChild(el('th', k < 3 ? 'n' : null, x));
			});
			h.appendChild(hr);
			t.appendChild(h);
			var tb = el('tbody'), best = null, bestSelf = -1, shown = 0;
			for (var i = 0; i < lines.length; i++) {
				var l = lines[i], ln = l[1];
				if (text && ln > 0) {
					var from = Math.max(ln - 3, shown + 1);
					if (shown && from > shown + 1)
						lineRow(tb, f, null, null, 0);
					for (var k = from; k < ln && k <= text.length; k++)
						lineRow(tb, f, null, text[k - 1], k);
					if (ln > shown)
						shown = ln;
				}
				var code = text && ln > 0 && ln <= text.length ? text[ln - 1] : null;
				var tr = lineRow(tb, f, l, code, ln);
				if (l[2] > bestSelf || (l[2] === bestSelf && !best)) {
					bestSelf = l[2];
					best = tr;
				}
				var next = i + 1 < lines.length ? lines[i + 1][1] : 0;
				if (text && ln > 0 && next !== ln) {
					var to = next > ln && next - 1 < ln + 3 ? next - 1 : ln + 3;
					for (k = Math.max(ln + 1, shown + 1); k <= to && k <= text.length; k++)
						lineRow(tb, f, null, text[k - 1], k);
					if (to > shown)
						shown = to;
				}
			}
			t.appendChild(tb);
			scroller.appendChild(t);
			wrap.appendChild(scroller);
			return {el: wrap, best: best, self: bestSelf, box: scroller};
		}

		/* the selection (Narrow's calls and lines), or null: the
		 * whole run */
		var narrow = null, current = null;

		function show(name, scroll) {
			var f = byName.hasOwnProperty(name) ? byName[name] : null;
			current = name;
			box.textContent = '';
			box.hidden = false;
			box.setAttribute('data-fn', name);
			['data-narrowed', 'data-self', 'data-total'].forEach(function (a) {
				box.removeAttribute(a);
			});
			if (narrow)
				box.setAttribute('data-narrowed', 'yes');
			var title = el('h3', 'f', name);
			box.appendChild(title);
			var c = narrow ? narrow.calls(name) : null;
			if (!f && !c) {
				box.appendChild(el('p', 'note', 'No source lines or callers ' +
					'embedded for this function: the page holds them for the ' +
					'functions of the tables of top functions.'));
				if (scroll)
					$('fnview').scrollIntoView();
				return;
			}
			var lines = f ? f.lines : [], code = f ? f.code : 0;
			if (c) {
				var nl = f ? narrow.lines(f) : null;
				if (nl) {
					lines = nl;
					code = 0;
					for (var q = 0; q < nl.length; q++)
						code += nl[q][2];
				}
				box.setAttribute('data-self', String(c.self));
				box.setAttribute('data-total', String(c.total));
				box.appendChild(el('p', 'note', (f && f.module ? f.module + ': ' : '') +
					'in the selection, ' + fmt(c.self) + ' samples self, ' +
					fmt(c.total) + ' total (' + pct(c.total, narrow.total) +
					' of the selection\'s ' + fmt(narrow.total) + '). Callers and ' +
					'callees from the stacks of the flame graph\'s frames; ' +
					(!f ? 'no source lines embedded for this function.'
						: nl ? 'samples per line estimated: each frame\'s ' +
						  'share of the selection applied to its lines.'
						: 'source lines of the whole run (too many to split).')));
			} else {
				box.appendChild(el('p', 'note', (f.module ? f.module + ': ' : '') +
					fmt(f.self) + ' samples self, ' + fmt(f.total) + ' total (' +
					pct(f.total, d.samples) + ' of all); ' + fmt(f.code) +
					' samples running its code, inlined code included. Whole run.'));
			}
			var cc = el('div', 'fn-callgrid');
			var cr = c ? c.callers : f.callers, ce = c ? c.callees : f.callees;
			var tot = c ? c.total : f.total;
			cc.appendChild(calls('Callers (who calls it)', cr[0], cr[1], cr[2], tot));
			cc.appendChild(calls('Callees (whom it calls)', ce[0], ce[1], ce[2], tot));
			box.appendChild(cc);
			if (!f) {
				if (scroll)
					$('fnview').scrollIntoView();
				return;
			}
			box.appendChild(el('h3', null, 'Source lines'));
			var fx = {code: code};
			/* lines come by file, then line */
			var hot = null;
			for (var i = 0; i < lines.length;) {
				var j = i;
				while (j < lines.length && lines[j][0] === lines[i][0])
					j++;
				var b = fileBlock(fx, lines[i][0], lines.slice(i, j));
				box.appendChild(b.el);
				if (!hot || b.self > hot.self)
					hot = b;
				i = j;
			}
			if (!lines.length)
				box.appendChild(el('p', 'nodata', 'No line information.'));
			if (f.more_lines)
				box.appendChild(el('p', 'note', fmt(f.more_lines) +
					' more sampled lines not embedded.'));
			if (scroll)
				$('fnview').scrollIntoView();
			if (hot && hot.best && hot.self > 0) {
				hot.best.classList.add('top');
				hot.box.scrollTop = Math.max(hot.best.offsetTop - 60, 0);
			}
		}

		/* the selection changed: the function shown follows it */
		this.narrow = function (n) {
			narrow = n;
			if (current !== null)
				show(current, false);
		};

		document.addEventListener('click', function (ev) {
			var t = ev.target.closest ? ev.target.closest('td.f') : null;
			if (!t || !t.closest('table.funcs, table.calls'))
				return;
			show(t.getAttribute('data-fn') || t.textContent, true);
		});
		this.show = show;
	}

	/* ---- narrowing ---- */

	function Narrow(d, g, fg, fv) {
		var sel = $('nr-select'), strip = $('nr-time'), status = $('nr-status');
		var range = $('nr-range'), nt = d.threads.length, cells = d.cells;
		var b0 = 0, b1 = d.bins, cur = null;
		var binw = d.bins > 0 ? d.seconds / d.bins : 0;
		/* the cells' samples per frame over the whole run */
		var all0 = new Float64Array(g.n);
		for (var c0 = 0; c0 < cells.length; c0 += 4)
			all0[cells[c0]] += cells[c0 + 3];

		/* the frame whose cells hold frame e's samples (its ancestor
		 * at depth d.cut when the data was cut) */
		function cellFrame(e) {
			while (d.cut && g.depth[e] > d.cut)
				e = g.parent[e];
			return e;
		}

		/* callers and callees of the function named full in the
		 * selection, from the stacks the graph's frames stand for:
		 * each stack counted once per caller and callee, as
		 * mapreport --callers and --callees count them */
		function calls(full) {
			var id = g.names.indexOf(full), r = {self: 0, total: 0};
			var callers = new Map(), callees = new Map(), path = [];
			for (var e = 1; id >= 0 && e < g.n; e++) {
				var w = cur.self[e];
				if (w <= 0 || g.depth[e] < 2)
					continue;
				path.length = 0;
				for (var a = e; a > 0 && g.depth[a] >= 2; a = g.parent[a])
					path.push(a);
				path.reverse();
				var seenR = new Set(), seenE = new Set(), on = false;
				for (var p = 0; p < path.length; p++) {
					if (g.name[path[p]] !== id)
						continue;
					on = true;
					var cn = p ? g.names[g.name[path[p - 1]]] : '(program start)';
					if (!seenR.has(cn)) {
						seenR.add(cn);
						callers.set(cn, (callers.get(cn) || 0) + w);
					}
					if (p + 1 < path.length) {
						var en = g.names[g.name[path[p + 1]]];
						if (!seenE.has(en)) {
							seenE.add(en);
							callees.set(en, (callees.get(en) || 0) + w);
						}
					}
				}
				if (on)
					r.total += w;
				if (g.name[e] === id)
					r.self += w;
			}
			function rows(m) {
				var v = Array.from(m.entries()).sort(function (x, y) {
					return y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0);
				});
				var rest = 0;
				for (var i = ROWS; i < v.length; i++)
					rest += v[i][1];
				return [v.slice(0, ROWS), Math.max(v.length - ROWS, 0), rest];
			}
			r.callers = rows(callers);
			r.callees = rows(callees);
			return r;
		}

		/* f's lines in the selection: each line's samples from the
		 * stacks ending in a frame (f.lf), scaled by the share of that
		 * frame's samples the selection holds; null when the page has
		 * no such split for f */
		function lines(f) {
			if (!f.lf)
				return null;
			var out = f.lines.map(function (l) { return [l[0], l[1], 0, 0, l[4]]; });
			for (var i = 0; i < f.lf.length; i += 4) {
				var e = cellFrame(f.lf[i + 1]);
				var sh = all0[e] > 0 ? cur.self[e] / all0[e] : 0;
				out[f.lf[i]][2] += f.lf[i + 2] * sh;
				out[f.lf[i]][3] += f.lf[i + 3] * sh;
			}
			out.forEach(function (l) {
				l[2] = Math.round(l[2]);
				l[3] = Math.round(l[3]);
			});
			return out;
		}

		function opt(value, text) {
			var o = el('option', null, text);
			o.value = value;
			sel.appendChild(o);
		}
		opt('', 'the whole run (every process and thread)');
		var pids = [];
		for (var i = 0; i < nt; i++)
			if (pids.indexOf(d.threads[i][0]) < 0)
				pids.push(d.threads[i][0]);
		/* a thread is [process number, tid, thread name, program,
		 * pid as the text report writes it, pid]: two processes may
		 * have one pid (PID namespaces, logs of several hosts), the
		 * number tells them apart */
		pids.forEach(function (pid) {
			var name = '', label = '';
			for (var k = 0; k < nt; k++)
				if (d.threads[k][0] === pid) {
					name = d.threads[k][3];
					label = d.threads[k][4];
				}
			opt('p' + pid, 'process ' + label + ' (' + name + ')');
			for (k = 0; k < nt; k++)
				if (d.threads[k][0] === pid)
					opt('t' + k, '\u2003thread ' + d.threads[k][1] +
						(d.threads[k][2] ? ' ' + d.threads[k][2] : '') +
						' of ' + label);
		});

		function threadOk() {
			var v = sel.value, ok = new Uint8Array(nt);
			for (var k = 0; k < nt; k++)
				ok[k] = !v || (v[0] === 'p' ? d.threads[k][0] === +v.slice(1)
					: v[0] === 'P' ? d.threads[k][5] === +v.slice(1)
					: v[0] === 'T' ? d.threads[k][1] === +v.slice(1)
					: k === +v.slice(1));
			return ok;
		}

		function drawStrip(ok) {
			var per = new Float64Array(d.bins), max = 0;
			for (var c = 0; c < cells.length; c += 4)
				if (ok[cells[c + 1]])
					per[cells[c + 2]] += cells[c + 3];
			for (var b = 0; b < d.bins; b++)
				if (per[b] > max)
					max = per[b];
			strip.textContent = '';
			var w = 100 / Math.max(d.bins, 1);
			for (b = 0; b < d.bins; b++) {
				if (!per[b])
					continue;
				var bar = el('div', 'nr-bin' + (b >= b0 && b < b1 ? '' : ' out'));
				bar.style.left = (b * w) + '%';
				bar.style.width = w + '%';
				bar.style.height = (100 * per[b] / max) + '%';
				strip.appendChild(bar);
			}
			if (b0 > 0 || b1 < d.bins) {
				var r = el('div', 'nr-sel');
				r.style.left = (b0 * w) + '%';
				r.style.width = ((b1 - b0) * w) + '%';
				strip.appendChild(r);
			}
		}

		/* the function tables of the selection, from the graph */
		function functionTables(value, self) {
			var box = $('fn-narrowed'), n = g.n;
			/* by name id: the tables show the short name (the
			 * graph's label) and keep the whole one in data-fn and
			 * the tooltip, as the tables of the whole run do */
			var selfBy = {}, totalBy = {}, names = [];
			for (var i = 1; i < n; i++) {
				if (g.depth[i] < 2 || value[i] <= 0)
					continue;
				var nm = g.name[i];
				if (!selfBy.hasOwnProperty(nm)) {
					selfBy[nm] = totalBy[nm] = 0;
					names.push(nm);
				}
				selfBy[nm] += self[i];
				var outer = true;
				for (var a = g.parent[i]; a > 0 && g.depth[a] >= 2; a = g.parent[a])
					if (g.name[a] === g.name[i]) {
						outer = false;
						break;
					}
				if (outer)
					totalBy[nm] += value[i];
			}
			var rows = document.querySelectorAll('#functions > table.funcs tbody tr').length / 2;
			box.textContent = '';
			box.setAttribute('data-total', String(value[0]));
			box.appendChild(el('p', 'note', 'In the selection: ' + fmt(value[0]) +
				' samples. Functions as the flame graph names them.'));
			[['self', selfBy], ['total', totalBy]].forEach(function (kind) {
				var by = kind[1];
				var order = names.slice().sort(function (x, y) {
					var a = g.names[x], b = g.names[y];
					return by[y] - by[x] || (a < b ? -1 : a > b ? 1 : 0);
				});
				box.appendChild(el('h3', null, 'By ' + kind[0] + ' samples, in the selection'));
				var t = el('table', 'funcs nr-' + kind[0]), tb = el('tbody');
				var h = el('thead'), hr = el('tr');
				['Self', 'Self %', 'Total', 'Total %', 'Function'].forEach(function (x, k) {
					hr.appendChild(el('th', k < 4 ? 'n' : null, x));
				});
				h.appendChild(hr);
				t.appendChild(h);
				for (var r = 0; r < order.length && r < Math.max(rows, 20); r++) {
					var f = order[r];
					if (!by[f])
						break;
					var tr = el('tr');
					tr.setAttribute('data-self', String(selfBy[f]));
					tr.setAttribute('data-total', String(totalBy[f]));
					cell(tr, fmt(selfBy[f]), 'n');
					cell(tr, pct(selfBy[f], value[0]), 'n');
					cell(tr, fmt(totalBy[f]), 'n');
					cell(tr, pct(totalBy[f], value[0]), 'n');
					var full = g.names[f], label = g.labels[f];
					var td = cell(tr, label, 'f');
					if (label !== full) {
						td.setAttribute('data-fn', full);
						td.title = full;
					}
					tb.appendChild(tr);
				}
				t.appendChild(tb);
				box.appendChild(t);
			});
		}

		/* the chosen time range over the charts (svg.timed say where
		 * the run's start and end are on their x axis) */
		function markCharts() {
			var svgs = document.querySelectorAll('svg.timed');
			for (var i = 0; i < svgs.length; i++) {
				var sv = svgs[i], old = sv.querySelector('rect.nr-span');
				if (old)
					sv.removeChild(old);
				if (b0 === 0 && b1 === d.bins)
					continue;
				var x0 = +sv.getAttribute('data-x0'), x1 = +sv.getAttribute('data-x1');
				var span = +sv.getAttribute('data-span') || 1;
				var vb = sv.viewBox.baseVal;
				var a = x0 + Math.min(b0 * binw / span, 1) * (x1 - x0);
				var b = x0 + Math.min(b1 * binw / span, 1) * (x1 - x0);
				var r = document.createElementNS(sv.namespaceURI, 'rect');
				r.setAttribute('class', 'nr-span');
				r.setAttribute('x', a.toFixed(1));
				r.setAttribute('y', '0');
				r.setAttribute('width', Math.max(b - a, 1).toFixed(1));
				r.setAttribute('height', String(vb ? vb.height : 0));
				sv.appendChild(r);
			}
		}

		function apply() {
			var ok = threadOk(), all = !sel.value && b0 === 0 && b1 === d.bins;
			var n = g.n, value = new Float64Array(n), self = new Float64Array(n);
			if (all) {
				value.set(g.value0);
				for (var i = 0; i < n; i++)
					self[i] = value[i];
				for (i = 1; i < n; i++)
					self[g.parent[i]] -= value[i];
			} else {
				for (var c = 0; c < cells.length; c += 4)
					if (ok[cells[c + 1]] && cells[c + 2] >= b0 && cells[c + 2] < b1)
						self[cells[c]] += cells[c + 3];
				value.set(self);
				for (i = n - 1; i > 0; i--)
					value[g.parent[i]] += value[i];
			}
			g.value.set(value);
			fg.redraw();
			drawStrip(ok);
			markCharts();
			/* the static tables are of the whole run */
			var st = document.querySelectorAll('#functions > h3, #functions > table.funcs');
			for (i = 0; i < st.length; i++)
				st[i].hidden = !all;
			$('fn-narrowed').hidden = all;
			if (!all)
				functionTables(value, self);
			cur = all ? null : {self: self, total: value[0]};
			if (fv)
				fv.narrow(all ? null : {calls: calls, lines: lines, total: value[0]});
			/* a row of process number proc (thread tid, or every
			 * thread when tid is null) is shown when the selection
			 * holds it */
			function shown(proc, tid) {
				var show = !sel.value;
				for (var k = 0; !show && k < nt; k++)
					show = ok[k] && d.threads[k][0] === proc &&
						(tid === null || d.threads[k][1] === +tid);
				return show;
			}
			var rows = document.querySelectorAll('#summary tr[data-proc]');
			for (i = 0; i < rows.length; i++) {
				var r = rows[i];
				r.hidden = !shown(+r.getAttribute('data-proc'), r.getAttribute('data-tid'));
			}
			/* the thread activity chart: the selection's rows only,
			 * packed from the top */
			var act = document.querySelector('#activity svg[data-rowh]');
			if (act) {
				var lanes = act.querySelectorAll('g.act-row'), rh = +act.getAttribute('data-rowh');
				var kept = 0;
				for (i = 0; i < lanes.length; i++) {
					var ln = lanes[i];
					if (!shown(+ln.getAttribute('data-proc'), ln.getAttribute('data-tid'))) {
						ln.setAttribute('display', 'none');
						continue;
					}
					ln.removeAttribute('display');
					ln.setAttribute('transform', 'translate(0,' +
						((kept - i) * rh) + ')');
					kept++;
				}
				var foot = act.querySelector('g.act-foot');
				if (foot)
					foot.setAttribute('transform', 'translate(0,' +
						((kept - lanes.length) * rh) + ')');
				var vb = act.viewBox.baseVal;
				act.setAttribute('viewBox', '0 0 ' + vb.width + ' ' +
					(kept * rh + 28));
				act.setAttribute('data-rows', String(kept));
			}
			range.textContent = b0 === 0 && b1 === d.bins ? ' all of the run' :
				' from ' + (b0 * binw).toFixed(3) + ' s to ' + (b1 * binw).toFixed(3) + ' s';
			status.textContent = fmt(value[0]) + ' samples selected' + (all || !d.cut ? ''
				: '; frames deeper than ' + d.cut + ' levels are not told apart in the selection');
			status.setAttribute('data-samples', String(value[0]));
			document.documentElement.setAttribute('data-narrowed', all ? 'no' : 'yes');
		}

		function binAt(ev) {
			var r = strip.getBoundingClientRect();
			var f = r.width > 0 ? (ev.clientX - r.left) / r.width : 0;
			return Math.min(Math.max(Math.floor(f * d.bins), 0), d.bins - 1);
		}
		var from = -1;
		strip.addEventListener('mousedown', function (ev) {
			from = binAt(ev);
			ev.preventDefault();
		});
		window.addEventListener('mousemove', function (ev) {
			if (from < 0)
				return;
			var b = binAt(ev);
			b0 = Math.min(from, b);
			b1 = Math.max(from, b) + 1;
			drawStrip(threadOk());
		});
		window.addEventListener('mouseup', function () {
			if (from < 0)
				return;
			from = -1;
			apply();
		});
		sel.addEventListener('change', apply);
		$('nr-clear').addEventListener('click', function () {
			sel.value = '';
			b0 = 0;
			b1 = d.bins;
			apply();
		});
		/* every thread of that id, as mapreport --tid takes it */
		this.thread = function (tid) {
			var hits = [];
			for (var k = 0; k < nt; k++)
				if (d.threads[k][1] === tid)
					hits.push(k);
			if (hits.length > 1) {
				opt('T' + tid, 'threads ' + tid + ' of ' + hits.length + ' processes');
				sel.value = 'T' + tid;
			} else if (hits.length) {
				sel.value = 't' + hits[0];
			}
			apply();
		};
		/* the process of that pid, or every one when processes of
		 * several PID namespaces or hosts have it */
		this.process = function (pid) {
			var procs = [];
			for (var k = 0; k < nt; k++)
				if (d.threads[k][5] === pid && procs.indexOf(d.threads[k][0]) < 0)
					procs.push(d.threads[k][0]);
			if (procs.length > 1) {
				opt('P' + pid, 'processes ' + pid + ' (' + procs.length + ' of them)');
				sel.value = 'P' + pid;
			} else if (procs.length) {
				sel.value = 'p' + procs[0];
			}
			apply();
		};
		/* a time given to the nanosecond on a bin's edge (as the
		 * page prints them) is that edge, not the next bin: within a
		 * millionth of a bin counts as on it */
		this.time = function (a, b) {
			b0 = binw > 0 ? Math.max(Math.floor(a / binw + 1e-6), 0) : 0;
			b1 = binw > 0 ? Math.min(Math.ceil(b / binw - 1e-6), d.bins) : d.bins;
			if (b1 <= b0)
				b1 = Math.min(b0 + 1, d.bins);
			apply();
		};
		$('nr-bar').hidden = false;
		apply();
	}

	function start() {
		var g = null, fg = null, fv = null, nr = null;
		try {
			g = load();
		} catch (e) {
			var st = $('fg-status');
			if (st)
				st.textContent = 'flame graph data unreadable: ' + e.message;
			throw e;
		}
		var fd = json('fn-data');
		if (fd)
			fv = new FunctionView(fd);
		if (g && g.n > 0) {
			var c = $('fg-controls');
			if (c)
				c.hidden = false;
			$('fg').hidden = false;
			fg = new FlameGraph(g, fv ? function (name) { fv.show(name, false); } : null);
			var nd = json('nr-data');
			if (nd)
				nr = new Narrow(nd, g, fg, fv);
		}
		/* an address may carry a search, a selection, a function:
		 * report.html#fg-search=TEXT&tid=N&time=A:B&fn=NAME */
		var parts = location.hash.replace(/^#/, '').split('&');
		for (var i = 0; i < parts.length; i++) {
			var eq = parts[i].indexOf('=');
			if (eq < 0)
				continue;
			var k = parts[i].slice(0, eq), v = decodeURIComponent(parts[i].slice(eq + 1));
			if (k === 'fg-search' && fg) {
				$('fg-search').value = v;
				fg.find(v);
			} else if (k === 'tid' && nr) {
				nr.thread(+v);
			} else if (k === 'pid' && nr) {
				nr.process(+v);
			} else if (k === 'time' && nr && v.indexOf(':') >= 0) {
				nr.time(+v.split(':')[0], +v.split(':')[1]);
			} else if (k === 'fn' && fv) {
				/* as a click on the function in a table */
				var cells = document.querySelectorAll('table.funcs td.f'), hit = null;
				for (var j = 0; j < cells.length && !hit; j++)
					if ((cells[j].getAttribute('data-fn') || cells[j].textContent) === v)
						hit = cells[j];
				if (hit)
					hit.click();
				else
					fv.show(v, true);
			}
		}
		document.documentElement.setAttribute('data-js', 'ready');
	}

	if (document.readyState === 'loading')
		document.addEventListener('DOMContentLoaded', start);
	else
		start();
})();
