// Injected by render.sh into a copy of the report (the report itself has no
// script): every <text> of every chart is measured as the browser lays it out
// (getBBox through getScreenCTM, so rotated labels keep their shape) and must
// lie inside its <svg> and overlap no other text of that <svg> (by more than
// 2px). The findings, or "LAYOUT OK", go into the pre element "layout-findings".
(function () {
    var TOL = 2, out = [];
    function quad(el) {
        var b = el.getBBox(), m = el.getScreenCTM();
        return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height],
                [b.x, b.y + b.height]].map(function (p) {
            return [m.a * p[0] + m.c * p[1] + m.e, m.b * p[0] + m.d * p[1] + m.f];
        });
    }
    function span(poly, nx, ny) {
        var lo = Infinity, hi = -Infinity;
        poly.forEach(function (v) {
            var d = v[0] * nx + v[1] * ny;
            lo = Math.min(lo, d);
            hi = Math.max(hi, d);
        });
        return [lo, hi];
    }
    // Separating axes of two convex quadrilaterals: apart, or overlapping by TOL or less.
    function apart(a, b) {
        var polys = [a, b];
        for (var i = 0; i < 2; i++)
            for (var j = 0; j < 4; j++) {
                var p = polys[i][j], q = polys[i][(j + 1) % 4];
                var nx = q[1] - p[1], ny = p[0] - q[0], len = Math.hypot(nx, ny);
                if (len < 1e-9)
                    continue;
                nx /= len;
                ny /= len;
                var sa = span(a, nx, ny), sb = span(b, nx, ny);
                if (sa[1] - sb[0] <= TOL || sb[1] - sa[0] <= TOL)
                    return true;
            }
        return false;
    }
    function name(t) {
        return JSON.stringify((t.textContent || "").slice(0, 60));
    }
    var svgs = document.querySelectorAll("svg.chart");
    for (var s = 0; s < svgs.length; s++) {
        var box = svgs[s].getBoundingClientRect(), texts = [], quads = [];
        var title = (svgs[s].getAttribute("aria-label") || "").slice(0, 50);
        svgs[s].querySelectorAll("text").forEach(function (t) {
            var b = t.getBBox();
            if (b.width > 0 && b.height > 0) {
                texts.push(t);
                quads.push(quad(t));
            }
        });
        for (var i = 0; i < texts.length; i++) {
            var outside = quads[i].some(function (v) {
                return v[0] < box.left - 0.5 || v[0] > box.right + 0.5 ||
                       v[1] < box.top - 0.5 || v[1] > box.bottom + 0.5;
            });
            if (outside)
                out.push("overflow: chart " + s + " (" + title + "): text " + name(texts[i]) +
                         " runs outside its SVG");
            for (var j = 0; j < i; j++)
                if (!apart(quads[i], quads[j]))
                    out.push("overlap: chart " + s + " (" + title + "): text " + name(texts[i]) +
                             " overlaps " + name(texts[j]));
        }
    }
    var pre = document.createElement("pre");
    pre.id = "layout-findings";
    pre.textContent = out.length ? out.join("\n") : "LAYOUT OK";
    document.body.appendChild(pre);
})();
