/* rt_show.c: imshow, hold, title, and the figures of plot and subplot, pause and
   sync_framerate. With a display, images go to windows drawn by SDL2,
   loaded at run time with dlopen("libSDL2-2.0.so.0") through the few declarations below,
   so neither the build nor the binary needs SDL. Without one (no $DISPLAY or
   $WAYLAND_DISPLAY, no SDL, SDL_Init failing), or when a folder is named (--show-dir,
   $OQ_SHOW_DIR), each image is written as a PNG and its path printed: the seeds' examples
   run headless. docs/images.md describes the behaviour; the state is one ShowCtx. */
#include <dlfcn.h>
#include <math.h>
#include <time.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/config.h"
#include "runtime/rt_image.h"
#include "runtime/rt_plot.h"
#include "runtime/rt_show.h"

/* ---- the part of SDL2's ABI used here (SDL2 2.x, stable) ---- */
typedef struct SDL_Window SDL_Window;
typedef struct SDL_Renderer SDL_Renderer;
typedef struct SDL_Texture SDL_Texture;
typedef union SDL_Event {
  uint32_t type;
  struct { uint32_t type, timestamp, windowID; uint8_t event; } window;   /* also key events' windowID */
  uint8_t padding[56];
} SDL_Event;
enum {
  SDL_INIT_VIDEO = 0x20, SDL_WINDOWPOS_CENTERED = 0x2FFF0000, SDL_WINDOW_SHOWN = 0x4,
  SDL_WINDOW_RESIZABLE = 0x20, SDL_PIXELFORMAT_RGB24 = 0x17101803, SDL_TEXTUREACCESS_STREAMING = 1,
  SDL_QUIT_EV = 0x100, SDL_WINDOWEVENT = 0x200, SDL_KEYDOWN = 0x300,
  SDL_WINDOWEVENT_EXPOSED = 3, SDL_WINDOWEVENT_CLOSE = 14,
};

typedef struct Sdl {
  int (*Init)(uint32_t);
  void (*Quit)(void);
  const char *(*GetError)(void);
  SDL_Window *(*CreateWindow)(const char *, int, int, int, int, uint32_t);
  void (*DestroyWindow)(SDL_Window *);
  uint32_t (*GetWindowID)(SDL_Window *);
  void (*SetWindowTitle)(SDL_Window *, const char *);
  void (*SetWindowSize)(SDL_Window *, int, int);
  SDL_Renderer *(*CreateRenderer)(SDL_Window *, int, uint32_t);
  void (*DestroyRenderer)(SDL_Renderer *);
  SDL_Texture *(*CreateTexture)(SDL_Renderer *, uint32_t, int, int, int);
  void (*DestroyTexture)(SDL_Texture *);
  int (*UpdateTexture)(SDL_Texture *, const void *, const void *, int);
  int (*RenderClear)(SDL_Renderer *);
  int (*RenderCopy)(SDL_Renderer *, SDL_Texture *, const void *, const void *);
  void (*RenderPresent)(SDL_Renderer *);
  int (*PollEvent)(SDL_Event *);
  int (*WaitEvent)(SDL_Event *);
  const char *(*GetCurrentVideoDriver)(void);
} Sdl;

typedef struct Window {
  SDL_Window *win;
  SDL_Renderer *ren;
  SDL_Texture *tex;
  uint32_t id;
  int w, h;
} Window;

#define MAX_WINDOWS 64

/* The figure that plot and subplot draw into: a canvas of rows x cols panels (one panel
   outside subplot). */
typedef struct Figure {
  int rows, cols, panel;    /* subplot(rows, cols, panel); rows 0: no subplot layout */
  int pw, ph;               /* a panel's size; 0 until its first content */
  unsigned char *rgb;       /* cols*pw x rows*ph, RGB */
  int number;               /* the subplot figure's file number; 0: not shown yet */
  PlotCurve *curves;        /* the curves of the last plot (hold("on") adds to them) */
  int ncurves, curve_panel;
  bool last_was_plot;       /* the last figure shown outside subplot was a plot */
} Figure;

typedef struct ShowCtx {
  enum { SHOW_UNDECIDED, SHOW_WINDOW, SHOW_FILES } mode;
  const char *dir;          /* --show-dir; NULL: $OQ_SHOW_DIR, else next to the program */
  Sdl sdl;
  Window win[MAX_WINDOWS];
  int nwin;
  bool hold;                /* hold("on"): imshow updates the last window or file */
  int count;                /* files written (their numbers) */
  char title[256];          /* title() for the next window */
  Figure fig;
  double frame_ms;          /* sync_framerate: the time between two frames in windows; 0: none */
  double last_frame;        /* when the last image was shown in a window (ms) */
} ShowCtx;

static ShowCtx show;

void rt_show_set_dir(const char *dir) { show.dir = dir; }

/* ---- choosing windows or files ---- */

static bool load_sdl(Sdl *s) {
  void *h = dlopen("libSDL2-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!h) return false;
  struct { void **slot; const char *name; } syms[] = {
    {(void **)&s->Init, "SDL_Init"}, {(void **)&s->Quit, "SDL_Quit"}, {(void **)&s->GetError, "SDL_GetError"},
    {(void **)&s->CreateWindow, "SDL_CreateWindow"}, {(void **)&s->DestroyWindow, "SDL_DestroyWindow"},
    {(void **)&s->GetWindowID, "SDL_GetWindowID"}, {(void **)&s->SetWindowTitle, "SDL_SetWindowTitle"},
    {(void **)&s->SetWindowSize, "SDL_SetWindowSize"}, {(void **)&s->CreateRenderer, "SDL_CreateRenderer"},
    {(void **)&s->DestroyRenderer, "SDL_DestroyRenderer"}, {(void **)&s->CreateTexture, "SDL_CreateTexture"},
    {(void **)&s->DestroyTexture, "SDL_DestroyTexture"}, {(void **)&s->UpdateTexture, "SDL_UpdateTexture"},
    {(void **)&s->RenderClear, "SDL_RenderClear"}, {(void **)&s->RenderCopy, "SDL_RenderCopy"},
    {(void **)&s->RenderPresent, "SDL_RenderPresent"}, {(void **)&s->PollEvent, "SDL_PollEvent"},
    {(void **)&s->WaitEvent, "SDL_WaitEvent"}, {(void **)&s->GetCurrentVideoDriver, "SDL_GetCurrentVideoDriver"},
  };
  for (size_t i = 0; i < sizeof syms / sizeof *syms; i++)
    if (!(*syms[i].slot = dlsym(h, syms[i].name))) return false;
  return true;
}

/* Files when a folder is named or no display can be opened; windows otherwise. */
static void decide(void) {
  if (show.mode != SHOW_UNDECIDED) return;
  show.mode = SHOW_FILES;
  if (!show.dir) show.dir = config()->show_dir;
  if (show.dir || !config()->display || !load_sdl(&show.sdl)) return;
  if (show.sdl.Init(SDL_INIT_VIDEO) != 0) {
    fprintf(stderr, "oq: imshow: no window (%s): writing PNG files instead\n", show.sdl.GetError());
    return;
  }
  /* SDL falls back to drivers that show nothing a user sees (KMSDRM, offscreen) */
  const char *drv = show.sdl.GetCurrentVideoDriver();
  if (!config()->sdl_driver && (!drv || (strcmp(drv, "x11") && strcmp(drv, "wayland")))) {
    fprintf(stderr, "oq: imshow: no window (SDL video driver '%s'): writing PNG files instead\n", drv ? drv : "none");
    show.sdl.Quit();
    return;
  }
  show.mode = SHOW_WINDOW;
}

/* ---- samples to 8-bit RGB ---- */

/* lo..hi to 0..255, rounded and clamped; gray (1 or 2 channels) is repeated in R, G, B. */
static unsigned char *to_rgb(const Array *img, double lo, double hi) {
  int64_t h = img->dims[0], w = img->rank >= 2 ? img->dims[1] : 1, ch = img->rank == 3 ? img->dims[2] : 1;
  unsigned char *rgb = malloc((size_t)(h * w * 3));
  if (!rgb) return NULL;
  double scale = hi > lo ? 255.0 / (hi - lo) : 0;
  for (int64_t p = 0; p < h * w; p++)
    for (int c = 0; c < 3; c++) {
      double v = (arr_load(img, p * ch + (ch >= 3 ? c : 0)) - lo) * scale;
      rgb[p * 3 + c] = !(v > 0) ? 0 : v >= 255 ? 255 : (unsigned char)floor(v + 0.5);
    }
  return rgb;
}

/* ---- windows ---- */

static void close_window(int i) {
  Window *W = &show.win[i];
  show.sdl.DestroyTexture(W->tex);
  show.sdl.DestroyRenderer(W->ren);
  show.sdl.DestroyWindow(W->win);
  show.win[i] = show.win[--show.nwin];
}

static void redraw(Window *W) {
  show.sdl.RenderClear(W->ren);
  show.sdl.RenderCopy(W->ren, W->tex, NULL, NULL);
  show.sdl.RenderPresent(W->ren);
}

static int window_of(uint32_t id) {
  for (int i = 0; i < show.nwin; i++)
    if (show.win[i].id == id) return i;
  return -1;
}

/* A key or the close button closes that window; the quit request closes them all. */
static void handle(const SDL_Event *e) {
  int i = window_of(e->window.windowID);
  if (e->type == SDL_QUIT_EV)
    while (show.nwin) close_window(show.nwin - 1);
  else if (e->type == SDL_KEYDOWN && i >= 0) close_window(i);
  else if (e->type == SDL_WINDOWEVENT && i >= 0 && e->window.event == SDL_WINDOWEVENT_CLOSE) close_window(i);
  else if (e->type == SDL_WINDOWEVENT && i >= 0 && e->window.event == SDL_WINDOWEVENT_EXPOSED) redraw(&show.win[i]);
}

static void pump(void) {
  SDL_Event e;
  while (show.sdl.PollEvent(&e)) handle(&e);
}

/* The window to draw a w x h image in: the last one under hold("on") (resized), else a new one. */
static Window *target_window(int w, int h, bool reuse, SrcLoc loc) {
  if (reuse && show.nwin) {
    Window *W = &show.win[show.nwin - 1];
    if (W->w == w && W->h == h) return W;
    show.sdl.DestroyTexture(W->tex);
    W->tex = show.sdl.CreateTexture(W->ren, SDL_PIXELFORMAT_RGB24, SDL_TEXTUREACCESS_STREAMING, w, h);
    show.sdl.SetWindowSize(W->win, w, h);
    W->w = w, W->h = h;
    if (!W->tex) rt_error(loc, "imshow: %s", show.sdl.GetError());
    return W;
  }
  if (show.nwin == MAX_WINDOWS) close_window(0);   /* the oldest goes */
  Window *W = &show.win[show.nwin];
  const char *title = show.title[0] ? show.title : "oq imshow";
  W->win = show.sdl.CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
                                 SDL_WINDOW_SHOWN | SDL_WINDOW_RESIZABLE);
  W->ren = W->win ? show.sdl.CreateRenderer(W->win, -1, 0) : NULL;
  W->tex = W->ren ? show.sdl.CreateTexture(W->ren, SDL_PIXELFORMAT_RGB24, SDL_TEXTUREACCESS_STREAMING, w, h) : NULL;
  if (!W->tex) rt_error(loc, "imshow: cannot open a window: %s", show.sdl.GetError());
  W->id = show.sdl.GetWindowID(W->win);
  W->w = w, W->h = h;
  show.nwin++;
  return W;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Sleeps ms milliseconds; windows keep answering (redraws, close) meanwhile. */
static void wait_ms(double ms) {
  double end = now_ms() + ms;
  for (double left = ms; left > 0; left = end - now_ms()) {
    if (show.mode == SHOW_WINDOW) pump();
    double step = show.mode == SHOW_WINDOW && left > 10 ? 10 : left;
    struct timespec ts = {(time_t)(step / 1e3), (long)(fmod(step, 1e3) * 1e6)};
    nanosleep(&ts, NULL);
  }
}

static void show_window(const Array *img, double lo, double hi, bool reuse, SrcLoc loc) {
  pump();
  int w = (int)(img->rank >= 2 ? img->dims[1] : 1), h = (int)img->dims[0];
  unsigned char *rgb = to_rgb(img, lo, hi);
  if (!rgb) rt_error(loc, "imshow: out of memory");
  Window *W = target_window(w, h, reuse, loc);
  if (show.title[0]) show.sdl.SetWindowTitle(W->win, show.title);
  show.sdl.UpdateTexture(W->tex, NULL, rgb, w * 3);
  free(rgb);
  redraw(W);
  pump();
  if (show.frame_ms > 0) {   /* sync_framerate: frames no faster than the rate */
    double wait = show.last_frame + show.frame_ms - now_ms();
    if (wait > 0) wait_ms(wait);
    show.last_frame = now_ms();
  }
}

/* ---- files ---- */

/* The number of the next file: under hold("on") the last one again. */
static int file_number(bool reuse) {
  if (!reuse || show.count == 0) show.count++;
  return show.count;
}

/* <dir>/<program name>_<kind><N>.png; dir defaults to the program's folder. */
static void show_file(const Array *img, double lo, double hi, const char *prog, const char *kind, int number,
                      SrcLoc loc) {
  const char *slash = strrchr(prog, '/');
  const char *base = slash ? slash + 1 : prog;
  char dir[4096];
  if (show.dir) snprintf(dir, sizeof dir, "%s", show.dir);
  else if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - prog), prog);
  else snprintf(dir, sizeof dir, ".");
  char path[4400];
  snprintf(path, sizeof path, "%s/%.*s_%s%d.png", dir, (int)strcspn(base, "."), base, kind, number);
  Array *out = arr_new_uninit(EL_F32, img->rank, img->dims);
  double scale = hi > lo ? 255.0 / (hi - lo) : 0;
  for (int64_t i = 0; i < img->numel; i++) arr_store(out, i, (arr_load(img, i) - lo) * scale);
  rt_imwrite(path, out, loc);
  val_release(v_array(out));
  printf("%s: wrote %s\n", kind, path);
}

/* ---- figures: plot, subplot ---- */

/* The canvas as an image (h x w x 3 scalars) shown like imshow's: a window, or the file
   <prog>_<kind><N>.png. */
static void figure_show(const char *kind, bool reuse, int number, const char *prog, SrcLoc loc) {
  Figure *F = &show.fig;
  int64_t dims[3] = {(int64_t)(F->rows ? F->rows : 1) * F->ph, (int64_t)(F->rows ? F->cols : 1) * F->pw, 3};
  Array *a = arr_new_uninit(el_scalar(), 3, dims);
  for (int64_t i = 0; i < a->numel; i++) arr_store(a, i, F->rgb[i]);
  decide();
  if (show.mode == SHOW_WINDOW) show_window(a, 0, 255, reuse, loc);
  else show_file(a, 0, 255, prog, kind, number, loc);
  val_release(v_array(a));
  show.title[0] = 0;
}

/* A canvas for panels of pw x ph (the first content of a layout decides: a plot 320 x 240,
   an image its size, at least 320 x 240). */
static void figure_canvas(int pw, int ph, SrcLoc loc) {
  Figure *F = &show.fig;
  if (F->pw) return;
  int n = F->rows ? F->rows * F->cols : 1;
  F->pw = pw, F->ph = ph;
  F->rgb = malloc((size_t)pw * ph * 3 * n);
  if (!F->rgb) rt_error(loc, "out of memory for a figure of %d panels of %d x %d", n, pw, ph);
  memset(F->rgb, 255, (size_t)pw * ph * 3 * n);
}

static Rect panel_rect(const Figure *F) {
  int p = F->rows ? F->panel : 0, cols = F->rows ? F->cols : 1;
  return (Rect){(p % cols) * F->pw, (p / cols) * F->ph, F->pw, F->ph};
}

static Canvas figure_pixels(const Figure *F) {
  return (Canvas){F->rgb, (F->rows ? F->cols : 1) * F->pw * 3};
}

/* Shows the subplot figure: its own file number, kept while the layout lasts. */
static void figure_show_subplot(const char *prog, SrcLoc loc) {
  Figure *F = &show.fig;
  bool again = F->number != 0;
  if (!again) F->number = ++show.count;
  figure_show("subplot", again, F->number, prog, loc);
}

/* imshow in a subplot layout: the image (lo..hi stretched) scaled into the current panel. */
static void figure_image(const Array *img, double lo, double hi, const char *prog, SrcLoc loc) {
  Figure *F = &show.fig;
  int w = (int)(img->rank >= 2 ? img->dims[1] : 1), h = (int)img->dims[0];
  unsigned char *rgb = to_rgb(img, lo, hi);
  if (!rgb) rt_error(loc, "imshow: out of memory");
  figure_canvas(w > PLOT_PANEL_W ? w : PLOT_PANEL_W, h > PLOT_PANEL_H ? h : PLOT_PANEL_H, loc);
  plot_blit(figure_pixels(F), panel_rect(F), rgb, w, h);
  free(rgb);
  if (F->curve_panel == F->panel) F->ncurves = 0;   /* the panel's plot is gone */
  figure_show_subplot(prog, loc);
}

static void drop_curves(Figure *F) {
  for (int k = 0; k < F->ncurves; k++) free(F->curves[k].x), free(F->curves[k].y);
  F->ncurves = 0;
}

void rt_plot(const double *x, const double *y, int64_t n, const char *style, const char *prog, SrcLoc loc) {
  Figure *F = &show.fig;
  bool keep = show.hold && (F->rows ? F->curve_panel == F->panel : F->last_was_plot);
  if (!keep) drop_curves(F);
  F->curves = realloc(F->curves, (F->ncurves + 1) * sizeof *F->curves);
  PlotCurve *c = &F->curves[F->ncurves];
  c->x = malloc(n * sizeof *c->x);
  c->y = malloc(n * sizeof *c->y);
  if (!F->curves || !c->x || !c->y) rt_error(loc, "plot: out of memory");
  memcpy(c->x, x, n * sizeof *x);
  memcpy(c->y, y, n * sizeof *y);
  c->n = n;
  c->points = strchr(style, '.') != NULL;
  plot_color_default(F->ncurves, c->color);
  for (const char *p = style; *p; p++) plot_color_letter(*p, c->color);
  F->ncurves++;
  F->curve_panel = F->panel;
  if (F->rows) {
    figure_canvas(PLOT_PANEL_W, PLOT_PANEL_H, loc);
    plot_render(figure_pixels(F), panel_rect(F), F->curves, F->ncurves);
    figure_show_subplot(prog, loc);
    return;
  }
  if (F->pw != PLOT_W || F->ph != PLOT_H) {
    free(F->rgb);
    F->pw = 0;
    figure_canvas(PLOT_W, PLOT_H, loc);
  }
  plot_render(figure_pixels(F), panel_rect(F), F->curves, F->ncurves);
  figure_show("plot", show.hold, file_number(show.hold), prog, loc);
  F->last_was_plot = true;
}

/* subplot(rows, cols, k): the next imshow or plot draws into panel k (0-based, row by row)
   of a rows x cols figure; another layout starts a new figure. */
void rt_subplot(int rows, int cols, int panel, SrcLoc loc) {
  if (rows < 1 || cols < 1 || rows > 16 || cols > 16)
    rt_error(loc, "subplot: a layout has 1..16 rows and columns, not %d x %d", rows, cols);
  if (panel < 0 || panel >= rows * cols)
    rt_error(loc, "subplot: panel %d is outside a %d x %d layout (0..%d)", panel, rows, cols, rows * cols - 1);
  Figure *F = &show.fig;
  if (F->rows != rows || F->cols != cols) {
    drop_curves(F);
    free(F->rgb);
    F->rgb = NULL;
    F->pw = F->ph = F->number = 0;
    F->rows = rows, F->cols = cols;
  }
  F->panel = panel;
}

void rt_show_pause(double ms) {
  decide();
  wait_ms(ms);
}

void rt_show_sync_framerate(double fps) { show.frame_ms = fps > 0 ? 1000 / fps : 0; }

/* ---- the built-ins ---- */

void rt_imshow(const Array *img, const Array *range, const char *prog, SrcLoc loc) {
  if (img->elem == EL_C64 || img->elem == EL_C128) rt_error(loc, "imshow: cannot show a complex array");
  if (img->rank < 1 || img->rank > 3 || (img->rank == 3 && (img->dims[2] < 1 || img->dims[2] > 4)))
    rt_error(loc, "imshow: an image is a matrix or a cube of 1 to 4 channels");
  if (img->numel == 0) rt_error(loc, "imshow: the image is empty");
  double lo = 0, hi = 255;
  if (range && range->numel == 2) lo = arr_load(range, 0), hi = arr_load(range, 1);
  else if (range) {   /* []: the image's own range */
    lo = hi = arr_load(img, 0);
    for (int64_t i = 1; i < img->numel; i++) {
      double x = arr_load(img, i);
      lo = x < lo ? x : lo;
      hi = x > hi ? x : hi;
    }
  }
  decide();
  if (show.fig.rows) figure_image(img, lo, hi, prog, loc);
  else if (show.mode == SHOW_WINDOW) show_window(img, lo, hi, show.hold, loc);
  else show_file(img, lo, hi, prog, "imshow", file_number(show.hold), loc);
  show.fig.last_was_plot = false;
  show.title[0] = 0;
}

void rt_show_hold(bool on) { show.hold = on; }

/* hold()'s value: true while a window is open, so Quasar's `repeat ... until !hold("on")`
   runs until the user closes it; false when images go to files (or none was shown yet),
   so such a loop runs once. */
bool rt_show_open(void) {
  if (show.mode != SHOW_WINDOW) return false;
  pump();
  return show.nwin > 0;
}

void rt_show_title(const char *title) {
  snprintf(show.title, sizeof show.title, "%s", title);
  if (show.mode == SHOW_WINDOW && show.nwin) show.sdl.SetWindowTitle(show.win[show.nwin - 1].win, title);
}

/* At the end of the program: open windows stay until each is closed (a key, the close
   button), as Quasar keeps its figures; OQ_SHOW_WAIT=0 closes them at once. */
void rt_show_finish(void) {
  if (show.mode != SHOW_WINDOW) return;
  bool waiting = config()->show_wait;
  if (waiting && show.nwin) {
    fprintf(stderr, "oq: imshow: close the window%s (or press a key in %s) to end\n", show.nwin > 1 ? "s" : "",
            show.nwin > 1 ? "each" : "it");
    SDL_Event e;
    while (show.nwin && show.sdl.WaitEvent(&e)) handle(&e);
  }
  while (show.nwin) close_window(show.nwin - 1);
  show.sdl.Quit();
}
