/* rt_plot.c: line plots drawn into an RGB canvas without any library: an axes box with
   tick marks at round values, the curves as 1-pixel lines (Bresenham) or dots. No text is
   drawn (no font): the figures are for looking at shapes, and tests read their pixels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/rt_plot.h"

static const unsigned char white[3] = {255, 255, 255}, black[3] = {0, 0, 0};

static void put(Canvas c, int x, int y, const unsigned char color[3]) {
  memcpy(c.rgb + (size_t)y * c.stride + (size_t)x * 3, color, 3);
}

void plot_fill(Canvas c, Rect r, const unsigned char color[3]) {
  for (int y = r.y; y < r.y + r.h; y++)
    for (int x = r.x; x < r.x + r.w; x++) put(c, x, y, color);
}

/* A pixel of the data area only: curves never cross the box. */
static void put_clipped(Canvas c, Rect area, int x, int y, const unsigned char color[3]) {
  if (x >= area.x && x < area.x + area.w && y >= area.y && y < area.y + area.h) put(c, x, y, color);
}

static void line(Canvas c, Rect area, int x0, int y0, int x1, int y1, const unsigned char color[3]) {
  int dx = abs(x1 - x0), dy = -abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, err = dx + dy;
  for (;;) {
    put_clipped(c, area, x0, y0, color);
    if (x0 == x1 && y0 == y1) return;
    int e2 = 2 * err;
    if (e2 >= dy) err += dy, x0 += sx;
    if (e2 <= dx) err += dx, y0 += sy;
  }
}

/* The limits of every finite point; a flat range is widened by 1 each way. */
static void limits(const PlotCurve *cv, int n, bool of_x, double *lo, double *hi) {
  *lo = INFINITY, *hi = -INFINITY;
  for (int k = 0; k < n; k++)
    for (int64_t i = 0; i < cv[k].n; i++) {
      double v = of_x ? cv[k].x[i] : cv[k].y[i];
      if (isfinite(v)) *lo = fmin(*lo, v), *hi = fmax(*hi, v);
    }
  if (!(*lo <= *hi)) *lo = 0, *hi = 1;
  if (*lo == *hi) {   /* by 1, or by a millionth where 1 would not change the value */
    double pad = fmax(1, fabs(*lo) * 1e-6);
    *lo -= pad, *hi += pad;
  }
  if (!isfinite(*hi - *lo)) *lo /= 2, *hi /= 2;   /* -1e308..1e308: a range that is a number */
}

/* v of lo..hi to a pixel offset 0..n-1 (clamped: a value outside maps to the edge + 1). */
static int to_px(double v, double lo, double hi, int n) {
  double p = (v - lo) / (hi - lo) * (n - 1);
  return p >= -1 && p <= n ? (int)lround(p) : p < 0 ? -1 : n;
}

/* Round tick spacing: 1, 2 or 5 times a power of ten, about 5 ticks over the range. */
static double tick_step(double lo, double hi) {
  double raw = (hi - lo) / 5, p = pow(10, floor(log10(raw))), m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* Tick marks at the multiples of the step within lo..hi: offsets 0..n-1 into *at. */
static int tick_offsets(double lo, double hi, int n, int at[16]) {
  double step = tick_step(lo, hi), first = ceil(lo / step);
  int count = 0;
  if (!(step > 0) || !isfinite(step) || !isfinite(first)) return 0;
  for (int k = 0; k < 16; k++) {   /* about 5; the bound also stops where t + step == t */
    double t = (first + k) * step;
    if (t > hi + step * 1e-9) break;
    int p = to_px(t, lo, hi, n);
    if (p >= 0 && p < n) at[count++] = p;
  }
  return count;
}

static void ticks(Canvas c, Rect a, double xlo, double xhi, double ylo, double yhi) {
  int at[16], n = tick_offsets(xlo, xhi, a.w, at);
  for (int i = 0; i < n; i++)
    for (int k = 1; k <= 4; k++) put(c, a.x + at[i], a.y + a.h + k, black);
  n = tick_offsets(ylo, yhi, a.h, at);
  for (int i = 0; i < n; i++)
    for (int k = 1; k <= 4; k++) put(c, a.x - 1 - k, a.y + a.h - 1 - at[i], black);
}

static void box(Canvas c, Rect a) {
  for (int x = a.x - 1; x <= a.x + a.w; x++) put(c, x, a.y - 1, black), put(c, x, a.y + a.h, black);
  for (int y = a.y - 1; y <= a.y + a.h; y++) put(c, a.x - 1, y, black), put(c, a.x + a.w, y, black);
}

static void curve(Canvas c, Rect a, const PlotCurve *cv, double xlo, double xhi, double ylo, double yhi) {
  bool have = false;
  int px = 0, py = 0;
  for (int64_t i = 0; i < cv->n; i++) {
    if (!isfinite(cv->x[i]) || !isfinite(cv->y[i])) {   /* a gap in the line */
      have = false;
      continue;
    }
    int x = a.x + to_px(cv->x[i], xlo, xhi, a.w);
    int y = a.y + a.h - 1 - to_px(cv->y[i], ylo, yhi, a.h);
    if (cv->points)
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) put_clipped(c, a, x + dx, y + dy, cv->color);
    else if (have) line(c, a, px, py, x, y, cv->color);
    else put_clipped(c, a, x, y, cv->color);
    px = x, py = y, have = true;
  }
}

void plot_render(Canvas c, Rect panel, const PlotCurve *curves, int ncurves) {
  plot_fill(c, panel, white);
  Rect a = {panel.x + PLOT_LEFT, panel.y + PLOT_TOP, panel.w - PLOT_LEFT - PLOT_RIGHT, panel.h - PLOT_TOP - PLOT_BOTTOM};
  if (a.w < 2 || a.h < 2) return;
  double xlo, xhi, ylo, yhi;
  limits(curves, ncurves, true, &xlo, &xhi);
  limits(curves, ncurves, false, &ylo, &yhi);
  box(c, a);
  ticks(c, a, xlo, xhi, ylo, yhi);
  for (int k = 0; k < ncurves; k++) curve(c, a, &curves[k], xlo, xhi, ylo, yhi);
}

void plot_blit(Canvas c, Rect r, const unsigned char *img, int w, int h) {
  plot_fill(c, r, white);
  /* the largest size of the image's aspect that fits, centred */
  int dw = r.w, dh = (int)((int64_t)h * r.w / w);
  if (dh > r.h) dh = r.h, dw = (int)((int64_t)w * r.h / h);
  if (dw < 1) dw = 1;
  if (dh < 1) dh = 1;
  int ox = r.x + (r.w - dw) / 2, oy = r.y + (r.h - dh) / 2;
  for (int y = 0; y < dh; y++) {
    int sy = (int)((int64_t)y * h / dh);
    for (int x = 0; x < dw; x++) {
      int sx = (int)((int64_t)x * w / dw);
      put(c, ox + x, oy + y, img + ((size_t)sy * w + sx) * 3);
    }
  }
}

void plot_color_default(int k, unsigned char out[3]) {
  static const unsigned char order[7][3] = {{0, 114, 189}, {217, 83, 25}, {237, 177, 32}, {126, 47, 142},
                                            {119, 172, 48}, {77, 190, 238}, {162, 20, 47}};
  memcpy(out, order[k % 7], 3);
}

bool plot_color_letter(char letter, unsigned char out[3]) {
  static const struct { char letter; unsigned char rgb[3]; } named[] = {
    {'r', {255, 0, 0}}, {'g', {0, 255, 0}}, {'b', {0, 0, 255}}, {'c', {0, 255, 255}},
    {'m', {255, 0, 255}}, {'y', {255, 255, 0}}, {'k', {0, 0, 0}}, {'w', {255, 255, 255}},
  };
  for (size_t i = 0; i < sizeof named / sizeof *named; i++)
    if (named[i].letter == letter) {
      memcpy(out, named[i].rgb, 3);
      return true;
    }
  return false;
}
