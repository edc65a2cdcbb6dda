/* rt_show.c: imshow, hold and title. With a display, images go to windows drawn by SDL2,
   loaded at run time with dlopen("libSDL2-2.0.so.0") through the few declarations below,
   so neither the build nor the binary needs SDL. Without one (no $DISPLAY or
   $WAYLAND_DISPLAY, no SDL, SDL_Init failing), or when a folder is named (--show-dir,
   $OQ_SHOW_DIR), each image is written as a PNG and its path printed: the seeds' examples
   run headless. docs/images.md describes the behaviour; the state is one ShowCtx. */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/config.h"
#include "runtime/rt_image.h"
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

typedef struct ShowCtx {
  enum { SHOW_UNDECIDED, SHOW_WINDOW, SHOW_FILES } mode;
  const char *dir;          /* --show-dir; NULL: $OQ_SHOW_DIR, else next to the program */
  Sdl sdl;
  Window win[MAX_WINDOWS];
  int nwin;
  bool hold;                /* hold("on"): imshow updates the last window or file */
  int count;                /* files written (their numbers) */
  char title[256];          /* title() for the next window */
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
static Window *target_window(int w, int h, SrcLoc loc) {
  if (show.hold && show.nwin) {
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

static void show_window(const Array *img, double lo, double hi, SrcLoc loc) {
  pump();
  int w = (int)(img->rank >= 2 ? img->dims[1] : 1), h = (int)img->dims[0];
  unsigned char *rgb = to_rgb(img, lo, hi);
  if (!rgb) rt_error(loc, "imshow: out of memory");
  Window *W = target_window(w, h, loc);
  if (show.title[0]) show.sdl.SetWindowTitle(W->win, show.title);
  show.sdl.UpdateTexture(W->tex, NULL, rgb, w * 3);
  free(rgb);
  redraw(W);
  pump();
}

/* ---- files ---- */

/* <dir>/<program name>_imshow<N>.png; dir defaults to the program's folder. */
static void show_file(const Array *img, double lo, double hi, const char *prog, SrcLoc loc) {
  const char *slash = strrchr(prog, '/');
  const char *base = slash ? slash + 1 : prog;
  char dir[4096];
  if (show.dir) snprintf(dir, sizeof dir, "%s", show.dir);
  else if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - prog), prog);
  else snprintf(dir, sizeof dir, ".");
  if (!show.hold || show.count == 0) show.count++;   /* hold("on"): overwrite the last file */
  char path[4400];
  snprintf(path, sizeof path, "%s/%.*s_imshow%d.png", dir, (int)strcspn(base, "."), base, show.count);
  Array *out = arr_new_uninit(EL_F32, img->rank, img->dims);
  double scale = hi > lo ? 255.0 / (hi - lo) : 0;
  for (int64_t i = 0; i < img->numel; i++) arr_store(out, i, (arr_load(img, i) - lo) * scale);
  rt_imwrite(path, out, loc);
  val_release(v_array(out));
  printf("imshow: wrote %s\n", path);
}

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
  if (show.mode == SHOW_WINDOW) show_window(img, lo, hi, loc);
  else show_file(img, lo, hi, prog, loc);
  show.title[0] = 0;
}

void rt_show_hold(bool on) { show.hold = on; }

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
