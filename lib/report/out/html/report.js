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
 */
(function () {
	'use strict';
	var ROW = 18;

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
		var stack = [], cursor = new Float64Array(n);
		for (var i = 0; i < n; i++) {
			g.name[i] = raw[3 * i];
			g.value[i] = raw[3 * i + 1];
			var dep = g.depth[i] = raw[3 * i + 2];
			if (dep > g.maxDepth)
				g.maxDepth = dep;
			var p = dep > 0 ? stack[dep - 1] : -1;
			g.parent[i] = p;
			g.x[i] = p < 0 ? 0 : cursor[p];
			if (p >= 0)
				cursor[p] += g.value[i];
			cursor[i] = g.x[i];
			stack[dep] = i;
		}
		/* end[i]: one past the last node of i's subtree */
		for (i = n - 1; i >= 0; i--)
			g.end[i] = i + 1;
		for (i = n - 1; i > 0; i--)
			if (g.end[i] > g.end[g.parent[i]])
				g.end[g.parent[i]] = g.end[i];
		return g;
	}

	function FlameGraph(g) {
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
	}

	function start() {
		var g = null;
		try {
			g = load();
		} catch (e) {
			var st = $('fg-status');
			if (st)
				st.textContent = 'flame graph data unreadable: ' + e.message;
			throw e;
		}
		if (g && g.n > 0) {
			var c = $('fg-controls');
			if (c)
				c.hidden = false;
			$('fg').hidden = false;
			var fg = new FlameGraph(g);
			/* a link may carry a search: report.html#fg-search=TEXT */
			var m = /^#fg-search=(.+)$/.exec(location.hash);
			if (m) {
				var q = decodeURIComponent(m[1]);
				$('fg-search').value = q;
				fg.find(q);
			}
		}
		document.documentElement.setAttribute('data-js', 'ready');
	}

	if (document.readyState === 'loading')
		document.addEventListener('DOMContentLoaded', start);
	else
		start();
})();
