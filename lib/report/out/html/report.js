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
 * line.  Any other function's callers and callees come from the flame
 * graph's frames (its source lines are not in the page).
 *
 * Narrowing to a process, a thread or a time range: narrow.js.  An address
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

	/* callers and callees of the function named full, from the stacks
	 * the graph's frames stand for (self[e]: the samples of the stacks
	 * ending in frame e): each stack counted once per caller and
	 * callee, as mapreport --callers and --callees count them, and once
	 * in the total however often it recurses */
	function stackCalls(g, self, full) {
		var id = g.names.indexOf(full), r = {self: 0, total: 0};
		var callers = new Map(), callees = new Map(), path = [];
		for (var e = 1; id >= 0 && e < g.n; e++) {
			var w = self[e];
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
		r.callers = callRows(callers);
		r.callees = callRows(callees);
		return r;
	}

	/* the rows of a callers' or callees' table from m (name ->
	 * samples): the first ROWS by samples, then name, as [name,
	 * samples, label] (label from labelOf when given); how many more
	 * and their samples */
	function callRows(m, labelOf) {
		var v = Array.from(m.entries()).sort(function (x, y) {
			return y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0);
		});
		var rest = 0, more = Math.max(v.length - ROWS, 0);
		for (var i = ROWS; i < v.length; i++)
			rest += v[i][1];
		v = v.slice(0, ROWS);
		if (labelOf)
			v.forEach(function (r) { r.push(labelOf(r[0])); });
		return [v, more, rest];
	}

	/* Reads the numbers of the strings a (joined) as lib/report/out/
	 * html_fncells.c's html_put_num() writes them: base 32, the last
	 * digit of each from END; other characters are the caller's to
	 * take (peek, skip). */
	var END = '0123456789abcdefghijklmnopqrstuv';
	var MORE = 'wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-';
	function NumReader(a) {
		var str = a ? a.join('') : '', pos = 0;
		this.more = function () { return pos < str.length; };
		this.peek = function () { return str[pos]; };
		this.skip = function () { pos++; };
		this.num = function () {
			var v = 0, k;
			while ((k = MORE.indexOf(str[pos])) >= 0) {
				v = v * 32 + k;
				pos++;
			}
			k = END.indexOf(str[pos++]);
			if (k < 0)
				throw new Error('page data unreadable at ' + pos);
			return v * 32 + k;
		};
	}

	/* The exact call data of nr-data ("fn", lib/report/out/
	 * html_fncells.c): keys (a function's total, its self, a call from
	 * one function to another) with their samples per thread and time
	 * bin, every stack of the run counted once per key; the page has it
	 * when its cells of call-tree nodes merge deep frames.  Functions are
	 * numbered as the flame graph's names, then fn.names.  Gives the
	 * samples of each key in a selection (sums) and from them any
	 * function's self, total, callers and callees (calls), as
	 * mapreport --callers and --callees count them. */
	function FnCalls(fn, names, labels) {
		var nn = names.length, rd;
		/* the keys: [a, b] with b -1 for a's total, -2 for its self,
		 * else a call from a (-1: the program start) to b */
		var ka = [], kb = [], keyOf = new Map();
		function key(a, b) {
			var id = a + ',' + b, k = keyOf.get(id);
			if (k === undefined) {
				k = ka.length;
				keyOf.set(id, k);
				ka.push(a);
				kb.push(b);
			}
			return k;
		}
		rd = new NumReader(fn.keys);
		while (rd.more()) {
			var a0 = rd.num() - 1, b0 = rd.num();
			key(a0, b0 === 0 ? -1 : b0 === 1 ? -2 : b0 - 2);
		}
		var nk = ka.length;
		/* the cells, decoded: see write_cells() */
		var ck = [], ct = [], cb = [], cc = [], id = 0, th = 0, bin = 0;
		rd = new NumReader(fn.cells);
		while (rd.more()) {
			if (rd.peek() === '!') {
				rd.skip();
				id += rd.num();
				th = bin = 0;
				continue;
			}
			if (rd.peek() === '.') {
				rd.skip();
				th += rd.num();
				bin = 0;
				continue;
			}
			bin += rd.num();
			ck.push(id);
			ct.push(th);
			cb.push(bin);
			cc.push(rd.num());
		}
		var byName = new Map(), totalKey = new Int32Array(nn).fill(-1);
		var selfKey = new Int32Array(nn).fill(-1), into = [], outof = [];
		names.forEach(function (x, i) {
			if (!byName.has(x))
				byName.set(x, i);
		});
		for (var k = 0; k < nk; k++) {
			if (kb[k] === -1)
				totalKey[ka[k]] = k;
			else if (kb[k] === -2)
				selfKey[ka[k]] = k;
			else {
				(into[kb[k]] = into[kb[k]] || []).push(k);
				if (ka[k] >= 0)
					(outof[ka[k]] = outof[ka[k]] || []).push(k);
			}
		}
		/* the functions that lost a key (html_fncells_write): bit
		 * i % 5 of character i / 5 */
		var pbits = (fn.partial || []).join('');
		function partial(id) {
			var c = END.indexOf(pbits.charAt(Math.floor(id / 5)));
			return c > 0 && ((c >> (id % 5)) & 1) === 1;
		}
		function labelOf(x) {
			var i = byName.get(x);
			return i === undefined ? x : labels[i];
		}
		this.names = names;
		this.labels = labels;
		this.totalKey = totalKey;
		this.selfKey = selfKey;
		/* the samples of each key in the threads ok[thread] and the
		 * bins b0 to b1 (all when ok is null) */
		this.sums = function (ok, b0, b1) {
			var v = new Float64Array(nk);
			for (var i = 0; i < ck.length; i++)
				if (!ok || (ok[ct[i]] && cb[i] >= b0 && cb[i] < b1))
					v[ck[i]] += cc[i];
			return v;
		};
		var whole = null;
		this.whole = function () {
			return whole || (whole = this.sums(null));
		};
		/* the calls of the function named full in sums v, as
		 * stackCalls gives them, and partial (its smallest callers or
		 * callees may be left out of the page: the smallest key kept,
		 * in samples over the run), or null when it has no samples */
		this.calls = function (v, full) {
			var id = byName.get(full);
			if (id === undefined || totalKey[id] < 0 || !v[totalKey[id]])
				return null;
			var r = {self: selfKey[id] >= 0 ? v[selfKey[id]] : 0,
				total: v[totalKey[id]],
				partial: partial(id) ? fn.min : 0};
			var er = new Map(), ee = new Map();
			(into[id] || []).forEach(function (k) {
				if (v[k])
					er.set(ka[k] < 0 ? '(program start)' : names[ka[k]], v[k]);
			});
			(outof[id] || []).forEach(function (k) {
				if (v[k])
					ee.set(names[kb[k]], v[k]);
			});
			r.callers = callRows(er, labelOf);
			r.callees = callRows(ee, labelOf);
			return r;
		};
	}

	/* ---- the function view ---- */

	function FunctionView(d, g) {
		/* the exact whole-run calls narrow.js gives (exact()) */
		var fc = null;
		var box = $('fn-view'), byName = {}, labelOf = {};
		for (var k = 0; k < d.funcs.length; k++)
			if (!byName.hasOwnProperty(d.funcs[k].name))
				byName[d.funcs[k].name] = d.funcs[k];
		/* the short names the flame graph shows (none with
		 * --full-names); the call rows of fn-data carry their own */
		for (k = 0; g && g.labels !== g.names && k < g.names.length; k++)
			if (g.labels[k] !== g.names[k])
				labelOf[g.names[k]] = g.labels[k];

		/* a cell of a function: the short name shown, the whole one
		 * in data-fn (what a click shows) and the tooltip */
		function fnCell(tr, full, label) {
			label = label || (labelOf.hasOwnProperty(full) ? labelOf[full] : full);
			var td = cell(tr, label, 'f');
			if (label !== full) {
				td.setAttribute('data-fn', full);
				td.title = full;
			}
			return td;
		}

		/* the whole run's callers and callees of a function without
		 * an entry in fn-data, from the flame graph's frames; null
		 * when no frame is that function's */
		var self0 = null;
		function wholeCalls(name) {
			if (fc)
				return fc.calls(name);
			if (!g)
				return null;
			if (!self0) {
				self0 = new Float64Array(g.value0);
				for (var i = 1; i < g.n; i++)
					self0[g.parent[i]] -= g.value0[i];
			}
			var c = stackCalls(g, self0, name);
			return c.total > 0 ? c : null;
		}

		/* a note when the page left out some of the smallest calls
		 * of the function of c (FnCalls) */
		function partialNote(c) {
			if (c.partial)
				box.appendChild(el('p', 'note fn-partial', 'Calls from or to ' +
					'this function with fewer than ' + fmt(c.partial) + ' samples ' +
					'over the whole run are not in this page (its size limit): ' +
					'mapreport --callers/--callees NAME lists every one.'));
		}

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
				fnCell(tr, rows[i][0], rows[i][2]);
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
			if (l && l[4]) {
				/* the short name (l[5]) when there is one, the
				 * whole one in the tooltip */
				var inl = el('span', 'inl', ' [inlined ' + (l[5] || l[4]) + ']');
				if (l[5]) {
					inl.title = l[4];
					inl.setAttribute('data-fn', l[4]);
				}
				c.appendChild(inl);
			}
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
			var title = el('h3', 'f', f && f.short ? f.short
				: labelOf.hasOwnProperty(name) ? labelOf[name] : name);
			if (title.textContent !== name)
				title.title = name;
			box.appendChild(title);
			var c = narrow ? narrow.calls(name) : null;
			var whole = !narrow && !f ? wholeCalls(name) : null;
			/* source lines: only the functions of fn-data have them */
			var nosrc = 'no source lines embedded for this function: the ' +
				'page holds them for the ' + d.funcs.length + ' functions at ' +
				'the top of the tables of functions (mapreport --lines=NAME ' +
				'prints any function\'s).';
			if (!f && !c && !whole) {
				box.appendChild(el('p', 'note', 'No samples of this function' +
					(!fc ? ' in the flame graph\'s frames' : fc.min ? ' in this ' +
					 'page (it leaves out calls with fewer than ' + fmt(fc.min) +
					 ' samples over the whole run)' : '') +
					(narrow ? ' in the selection' : '') +
					', and ' + nosrc));
				if (narrow && narrow.coarse)
					box.appendChild(el('p', 'note fn-coarse', narrow.coarse));
				if (scroll)
					$('fnview').scrollIntoView();
				return;
			}
			var lines = f ? f.lines : [], code = f ? f.code : 0;
			if (whole) {
				c = whole;
				box.setAttribute('data-self', String(c.self));
				box.setAttribute('data-total', String(c.total));
				box.appendChild(el('p', 'note', fmt(c.self) + ' samples self, ' +
					fmt(c.total) + ' total (' + pct(c.total, g.value0[0]) +
					' of all). Whole run. ' + (fc && !fc.coarse ? 'Callers and ' +
					'callees from every stack; ' : 'Callers and callees from the ' +
					'stacks of the flame graph\'s frames' + (fc ? '' : ' (frames ' +
					'under 1/20000 of the samples are left out of the graph)') +
					'; ') + nosrc));
				if (fc && fc.coarse)
					box.appendChild(el('p', 'note fn-coarse', fc.coarse));
				partialNote(c);
			} else if (c) {
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
					(!narrow.coarse ? 'callees from every stack of the selection; '
						: 'callees from the stacks of the flame graph\'s frames; ') +
					(!f ? nosrc
						: nl ? 'samples per line estimated: each frame\'s ' +
						  'share of the selection applied to its lines.'
						: 'source lines of the whole run (too many to split).')));
				if (narrow.coarse)
					box.appendChild(el('p', 'note fn-coarse', narrow.coarse));
				partialNote(c);
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

		/* x: calls(name) for the whole run from every stack, and the
		 * names and labels of the page's functions */
		this.exact = function (x) {
			fc = x;
			for (var i = g ? g.names.length : 0; i < x.names.length; i++)
				if (x.labels[i] !== x.names[i])
					labelOf[x.names[i]] = x.labels[i];
		};

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
			fv = new FunctionView(fd, g && g.n > 0 ? g : null);
		if (g && g.n > 0) {
			var c = $('fg-controls');
			if (c)
				c.hidden = false;
			$('fg').hidden = false;
			fg = new FlameGraph(g, fv ? function (name) { fv.show(name, false); } : null);
			var nd = json('nr-data');
			if (nd) {
				var Narrow = mapreportNarrow({$: $, el: el, cell: cell, fmt: fmt,
					pct: pct, stackCalls: stackCalls, FnCalls: FnCalls,
					NumReader: NumReader});
				nr = new Narrow(nd, g, fg, fv);
			}
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
