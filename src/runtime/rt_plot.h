/* rt_plot.h: drawing line plots and images into an 8-bit RGB canvas (rt_plot.c), for
   plot and subplot (rt_show.c keeps the figures and shows them like imshow). No state. */
#ifndef OQ_RT_PLOT_H
#define OQ_RT_PLOT_H
#include <stdbool.h>
#include <stdint.h>

/* A rectangle of a canvas: rows * stride bytes of R, G, B. */
typedef struct Canvas { unsigned char *rgb; int stride; } Canvas;
typedef struct Rect { int x, y, w, h; } Rect;

typedef struct PlotCurve {
  double *x, *y;            /* n points (owned by the figure) */
  int64_t n;
  unsigned char color[3];
  bool points;              /* style ".": a 3 x 3 dot per point, no lines */
} PlotCurve;

/* The margins of a plot panel: the data area is the panel less these, and the axes box
   is drawn one pixel outside the data area. docs/library.md gives the mapping. */
enum { PLOT_LEFT = 40, PLOT_RIGHT = 12, PLOT_TOP = 12, PLOT_BOTTOM = 28 };
enum { PLOT_W = 640, PLOT_H = 480, PLOT_PANEL_W = 320, PLOT_PANEL_H = 240 };

void plot_fill(Canvas c, Rect r, const unsigned char color[3]);
/* White panel, axes box with tick marks, the curves on limits that fit all of them. */
void plot_render(Canvas c, Rect panel, const PlotCurve *curves, int ncurves);
/* A w x h RGB image scaled (nearest pixel) to the largest size of its aspect that fits
   r, centred on white. */
void plot_blit(Canvas c, Rect r, const unsigned char *img, int w, int h);
/* The colour of the k-th curve (MATLAB's default order) or of a style letter
   (r g b c m y k w); false for an unknown letter. */
void plot_color_default(int k, unsigned char out[3]);
bool plot_color_letter(char letter, unsigned char out[3]);

#endif
