/* rt_show.h: imshow, hold and title (rt_show.c): a window per image through SDL2 when a
   display is available, else a PNG file per image. docs/images.md has the details. */
#ifndef OQ_RT_SHOW_H
#define OQ_RT_SHOW_H
#include "runtime/value.h"

/* --show-dir DIR: always write files, into DIR (else $OQ_SHOW_DIR, else windows when a
   display is available, files next to the program otherwise). */
void rt_show_set_dir(const char *dir);

/* imshow(img) (range NULL: 0..255), imshow(img, [lo, hi]), imshow(img, []) (range empty:
   the image's minimum..maximum). prog names the program, for file names. */
void rt_imshow(const Array *img, const Array *range, const char *prog, SrcLoc loc);

void rt_show_hold(bool on);            /* hold("on"): the next imshow updates the last window/file */
void rt_show_title(const char *title); /* the title of the next (or current) window */
bool rt_show_open(void);               /* hold()'s value: a window is open (files: false) */

/* plot(x, y, style): a line plot of n points in a figure shown like imshow's (a window, or
   <prog>_plot<N>.png; in a subplot layout its panel of <prog>_subplot<N>.png). style: ""
   or colour letters (r g b c m y k w) and "." for dots instead of lines. hold("on") adds
   the curve to the last plot. */
void rt_plot(const double *x, const double *y, int64_t n, const char *style, const char *prog, SrcLoc loc);
/* subplot(rows, cols, k): imshow and plot draw into panel k (0-based, row-major). */
void rt_subplot(int rows, int cols, int panel, SrcLoc loc);
void rt_show_pause(double ms);           /* sleeps; windows keep being redrawn */
void rt_show_sync_framerate(double fps); /* imshow in a window waits so frames come at fps */

/* After the program: waits until the user has closed every window (OQ_SHOW_WAIT=0: not). */
void rt_show_finish(void);

#endif
