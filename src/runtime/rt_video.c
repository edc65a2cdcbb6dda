/* rt_video.c: vidopen, vidreadframe, vidseek, vidwrite, vidclose on FFmpeg (libavformat,
   libavcodec, libswscale, libavutil), loaded with dlopen through rt_av_abi.h, so neither the
   build nor a machine without FFmpeg needs its headers: without the libraries each function
   stops with an error that names the missing library and its Debian package.
   A stream is a Handle (value.h) of class "vidstream" (reading) or "vidwriter" (writing);
   its fields (stream.rgb_data, stream.avg_frame_rate, ...) are computed by field_*.
   docs/library.md, "Video, plots and other formats", describes the behaviour. */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "runtime/rt_av_abi.h"
#include "runtime/rt_video.h"

#define F(T, p, off) OQ_AV_FIELD(T, p, off)

/* ---- the functions of FFmpeg used here ---- */

typedef struct Av {
  /* libavformat */
  int (*open_input)(void **ps, const char *url, const void *fmt, void **opts);
  int (*find_stream_info)(void *ic, void **opts);
  int (*find_best_stream)(void *ic, int type, int wanted, int related, const void **dec, int flags);
  void (*close_input)(void **s);
  int (*read_frame)(void *s, void *pkt);
  int (*seek_frame)(void *s, int idx, int64_t ts, int flags);
  OqAvRational (*guess_frame_rate)(void *ctx, void *st, void *frame);
  int (*alloc_output_context2)(void **ctx, const void *ofmt, const char *fmt_name, const char *filename);
  void *(*new_stream)(void *s, const void *c);
  int (*avio_open)(void **s, const char *url, int flags);
  int (*avio_closep)(void **s);
  int (*write_header)(void *s, void **opts);
  int (*interleaved_write_frame)(void *s, void *pkt);
  int (*write_trailer)(void *s);
  void (*free_format_context)(void *s);
  int (*guess_codec)(const void *fmt, const char *short_name, const char *filename, const char *mime, int type);
  /* libavcodec */
  void *(*alloc_context3)(const void *codec);
  void (*free_codec_context)(void **ctx);
  int (*parameters_to_context)(void *ctx, const void *par);
  int (*parameters_from_context)(void *par, const void *ctx);
  int (*open2)(void *ctx, const void *codec, void **opts);
  int (*send_packet)(void *ctx, const void *pkt);
  int (*receive_frame)(void *ctx, void *frame);
  int (*send_frame)(void *ctx, const void *frame);
  int (*receive_packet)(void *ctx, void *pkt);
  void (*flush_buffers)(void *ctx);
  void *(*packet_alloc)(void);
  void (*packet_free)(void **pkt);
  void (*packet_unref)(void *pkt);
  void (*packet_rescale_ts)(void *pkt, OqAvRational src, OqAvRational dst);
  const void *(*find_encoder)(int id);
  const void *(*find_encoder_by_name)(const char *name);
  /* libavutil */
  void *(*frame_alloc)(void);
  void (*frame_free)(void **f);
  void (*frame_unref)(void *f);
  int (*frame_get_buffer)(void *f, int align);
  int (*frame_make_writable)(void *f);
  int (*strerror)(int err, char *buf, size_t n);
  void (*log_set_level)(int level);
  int (*opt_set_image_size)(void *obj, const char *name, int w, int h, int flags);
  int (*opt_set_pixel_fmt)(void *obj, const char *name, int fmt, int flags);
  int (*opt_set_q)(void *obj, const char *name, OqAvRational q, int flags);
  int (*opt_set)(void *obj, const char *name, const char *val, int flags);
  OqAvRational (*d2q)(double d, int max);
  /* libswscale */
  void *(*sws_get)(void *ctx, int sw, int sh, int sf, int dw, int dh, int df, int flags, void *sfl,
                   void *dfl, const double *param);
  int (*sws_scale)(void *c, const uint8_t *const src[], const int sstride[], int y, int h,
                   uint8_t *const dst[], const int dstride[]);
  void (*sws_free)(void *c);
} Av;

typedef struct AvSym { size_t slot; const char *name; } AvSym;
#define S(field, name) {offsetof(Av, field), name}
static const AvSym av_format_syms[] = {
  S(open_input, "avformat_open_input"), S(find_stream_info, "avformat_find_stream_info"),
  S(find_best_stream, "av_find_best_stream"), S(close_input, "avformat_close_input"),
  S(read_frame, "av_read_frame"), S(seek_frame, "av_seek_frame"), S(guess_frame_rate, "av_guess_frame_rate"),
  S(alloc_output_context2, "avformat_alloc_output_context2"), S(new_stream, "avformat_new_stream"),
  S(avio_open, "avio_open"), S(avio_closep, "avio_closep"), S(write_header, "avformat_write_header"),
  S(interleaved_write_frame, "av_interleaved_write_frame"), S(write_trailer, "av_write_trailer"),
  S(free_format_context, "avformat_free_context"), S(guess_codec, "av_guess_codec"),
};
static const AvSym av_codec_syms[] = {
  S(alloc_context3, "avcodec_alloc_context3"), S(free_codec_context, "avcodec_free_context"),
  S(parameters_to_context, "avcodec_parameters_to_context"),
  S(parameters_from_context, "avcodec_parameters_from_context"), S(open2, "avcodec_open2"),
  S(send_packet, "avcodec_send_packet"), S(receive_frame, "avcodec_receive_frame"),
  S(send_frame, "avcodec_send_frame"), S(receive_packet, "avcodec_receive_packet"),
  S(flush_buffers, "avcodec_flush_buffers"), S(packet_alloc, "av_packet_alloc"),
  S(packet_free, "av_packet_free"), S(packet_unref, "av_packet_unref"),
  S(packet_rescale_ts, "av_packet_rescale_ts"), S(find_encoder, "avcodec_find_encoder"),
  S(find_encoder_by_name, "avcodec_find_encoder_by_name"),
};
static const AvSym av_util_syms[] = {
  S(frame_alloc, "av_frame_alloc"), S(frame_free, "av_frame_free"), S(frame_unref, "av_frame_unref"),
  S(frame_get_buffer, "av_frame_get_buffer"), S(frame_make_writable, "av_frame_make_writable"),
  S(strerror, "av_strerror"), S(log_set_level, "av_log_set_level"),
  S(opt_set_image_size, "av_opt_set_image_size"), S(opt_set_pixel_fmt, "av_opt_set_pixel_fmt"),
  S(opt_set_q, "av_opt_set_q"), S(opt_set, "av_opt_set"), S(d2q, "av_d2q"),
};
static const AvSym av_sws_syms[] = {
  S(sws_get, "sws_getCachedContext"), S(sws_scale, "sws_scale"), S(sws_free, "sws_freeContext"),
};
#undef S

/* One library: its soname, the Debian package that ships it, its symbols. */
static void av_load_lib(Av *av, const char *fname, const char *soname, const char *pkg, const AvSym *syms,
                        size_t n, SrcLoc loc) {
  void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!h)
    rt_error(loc, "%s: cannot load %s (FFmpeg): %s; install the Debian package %s", fname, soname, dlerror(), pkg);
  for (size_t i = 0; i < n; i++) {
    void *p = dlsym(h, syms[i].name);
    if (!p) rt_error(loc, "%s: %s lacks %s (FFmpeg version mismatch)", fname, soname, syms[i].name);
    memcpy((char *)av + syms[i].slot, &p, sizeof p);
  }
}

/* Fills av; each stream holds its own table (dlopen counts references), so there is no
   global state. FFmpeg's own log is silenced: errors come back as codes, reported here. */
static void av_load(Av *av, const char *fname, SrcLoc loc) {
  av_load_lib(av, fname, OQ_AV_LIBAVUTIL, "libavutil57", av_util_syms, sizeof av_util_syms / sizeof *av_util_syms, loc);
  av_load_lib(av, fname, OQ_AV_LIBAVCODEC, "libavcodec59", av_codec_syms, sizeof av_codec_syms / sizeof *av_codec_syms, loc);
  av_load_lib(av, fname, OQ_AV_LIBAVFORMAT, "libavformat59", av_format_syms,
              sizeof av_format_syms / sizeof *av_format_syms, loc);
  av_load_lib(av, fname, OQ_AV_LIBSWSCALE, "libswscale6", av_sws_syms, sizeof av_sws_syms / sizeof *av_sws_syms, loc);
  av->log_set_level(OQ_AV_LOG_QUIET);
}

static const char *av_err(const Av *av, int err, char *buf, size_t n) {
  if (av->strerror(err, buf, n) < 0) snprintf(buf, n, "error %d", err);
  return buf;
}

static double q2d(OqAvRational q) { return q.den ? (double)q.num / q.den : 0; }

/* ---- reading ---- */

typedef struct VidStream {
  Handle h;
  Av av;
  char *path;
  void *fc;            /* AVFormatContext */
  void *st;            /* the video AVStream */
  void *dec;           /* AVCodecContext */
  void *frame, *pkt;   /* AVFrame, AVPacket */
  void *sws;           /* SwsContext, cached per frame size and format */
  int idx;             /* the stream's index in the file */
  OqAvRational tb;     /* the stream's time base */
  int64_t start;       /* its start time (time base units), 0 when unknown */
  int64_t seek_to;     /* vidseek: frames before this timestamp are skipped */
  bool draining;       /* the file is read to its end; the decoder gives its last frames */
  bool ended, closed;
  int64_t frames;      /* frames read since vidopen or the last vidseek */
  double time;         /* the current frame's time in seconds */
  Array *rgb;          /* the current frame, h x w x 3, 0..255; NULL before the first */
  uint8_t *buf;        /* the RGB24 bytes of the conversion */
  size_t bufsize;
} VidStream;

static void stream_free_av(VidStream *S) {
  Av *av = &S->av;
  if (S->sws) av->sws_free(S->sws);
  if (S->frame) av->frame_free(&S->frame);
  if (S->pkt) av->packet_free(&S->pkt);
  if (S->dec) av->free_codec_context(&S->dec);
  if (S->fc) av->close_input(&S->fc);
  S->sws = NULL;
  free(S->buf);
  S->buf = NULL;
  S->closed = true;
}

static void stream_destroy(Handle *h) {
  VidStream *S = (VidStream *)h;
  if (!S->closed) stream_free_av(S);
  if (S->rgb) val_release(v_array(S->rgb));
  free(S->path);
  free(S);
}

static Value stream_field(Handle *h, const char *name, SrcLoc loc);
static const HandleClass vidstream_class = {"vidstream", stream_field, stream_destroy};

static void open_decoder(VidStream *S, SrcLoc loc) {
  Av *av = &S->av;
  char eb[128];
  const void *codec = NULL;
  S->idx = av->find_best_stream(S->fc, OQ_AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
  if (S->idx < 0 || !codec)
    rt_error(loc, "vidopen: '%s' has no video stream that libavcodec can decode", S->path);
  S->st = F(void **, S->fc, OQ_AVFMT_STREAMS)[S->idx];
  S->tb = F(OqAvRational, S->st, OQ_AVST_TIME_BASE);
  int64_t start = F(int64_t, S->st, OQ_AVST_START_TIME);
  S->start = start == OQ_AV_NOPTS_VALUE ? 0 : start;
  S->dec = av->alloc_context3(codec);
  int r = S->dec ? av->parameters_to_context(S->dec, F(void *, S->st, OQ_AVST_CODECPAR)) : -12;
  if (r >= 0) av->opt_set(S->dec, "threads", "auto", 0);   /* FFmpeg's own decoding threads */
  if (r >= 0) r = av->open2(S->dec, codec, NULL);
  if (r < 0) rt_error(loc, "vidopen: cannot open the decoder of '%s': %s", S->path, av_err(av, r, eb, sizeof eb));
  S->frame = av->frame_alloc();
  S->pkt = av->packet_alloc();
  if (!S->frame || !S->pkt) rt_error(loc, "vidopen: out of memory");
}

static Value vid_open_read(const char *path, SrcLoc loc) {
  VidStream *S = calloc(1, sizeof *S);
  S->h.refcount = 1;
  S->h.cls = &vidstream_class;
  S->path = strdup(path);
  S->seek_to = OQ_AV_NOPTS_VALUE;
  /* a missing file is reported as such, also where FFmpeg is not installed */
  if (access(path, R_OK) != 0) rt_error(loc, "vidopen: cannot open '%s': %s", path, strerror(errno));
  av_load(&S->av, "vidopen", loc);
  char eb[128];
  int r = S->av.open_input(&S->fc, path, NULL, NULL);
  if (r < 0) rt_error(loc, "vidopen: cannot open '%s': %s", path, av_err(&S->av, r, eb, sizeof eb));
  r = S->av.find_stream_info(S->fc, NULL);
  if (r < 0) rt_error(loc, "vidopen: cannot read the streams of '%s': %s", path, av_err(&S->av, r, eb, sizeof eb));
  open_decoder(S, loc);
  return v_handle(&S->h);
}

/* Decodes until S->frame holds the next frame (true) or the stream has ended (false). */
static bool decode_next(VidStream *S, SrcLoc loc) {
  Av *av = &S->av;
  char eb[128];
  for (;;) {
    int r = av->receive_frame(S->dec, S->frame);
    if (r == 0) {
      int64_t ts = F(int64_t, S->frame, OQ_AVFRAME_BEST_TS);
      if (ts == OQ_AV_NOPTS_VALUE) ts = F(int64_t, S->frame, OQ_AVFRAME_PTS);
      if (S->seek_to != OQ_AV_NOPTS_VALUE && ts != OQ_AV_NOPTS_VALUE && ts < S->seek_to) {
        av->frame_unref(S->frame);
        continue;
      }
      S->seek_to = OQ_AV_NOPTS_VALUE;
      if (ts != OQ_AV_NOPTS_VALUE) S->time = (double)(ts - S->start) * q2d(S->tb);
      return true;
    }
    /* the end; a draining decoder that asks for input has nothing more either (never loop) */
    if (r == OQ_AVERROR_EOF || (r == OQ_AVERROR_EAGAIN && S->draining)) return false;
    if (r != OQ_AVERROR_EAGAIN)
      rt_error(loc, "vidreadframe: cannot decode '%s': %s", S->path, av_err(av, r, eb, sizeof eb));
    r = av->read_frame(S->fc, S->pkt);
    if (r == OQ_AVERROR_EOF) {
      av->send_packet(S->dec, NULL);   /* drain: the decoder gives the frames it holds */
      S->draining = true;
      continue;
    }
    if (r < 0) rt_error(loc, "vidreadframe: cannot read '%s': %s", S->path, av_err(av, r, eb, sizeof eb));
    if (F(int, S->pkt, OQ_AVPKT_STREAM_INDEX) == S->idx) r = av->send_packet(S->dec, S->pkt);
    av->packet_unref(S->pkt);
    if (r < 0 && r != OQ_AVERROR_EAGAIN)
      rt_error(loc, "vidreadframe: cannot decode '%s': %s", S->path, av_err(av, r, eb, sizeof eb));
  }
}

/* The frame in S->frame to S->rgb (h x w x 3 scalars, 0..255). The array is reused when
   nothing else holds it (and it has no device copy); otherwise a new one is made, so a
   frame a program kept (`prev = stream.rgb_data`) is never overwritten. */
static void frame_to_rgb(VidStream *S, SrcLoc loc) {
  Av *av = &S->av;
  int w = F(int, S->frame, OQ_AVFRAME_WIDTH), h = F(int, S->frame, OQ_AVFRAME_HEIGHT);
  int fmt = F(int, S->frame, OQ_AVFRAME_FORMAT);
  if (w <= 0 || h <= 0) rt_error(loc, "vidreadframe: '%s' gave a frame of size %d x %d", S->path, w, h);
  S->sws = av->sws_get(S->sws, w, h, fmt, w, h, OQ_AV_PIX_FMT_RGB24,
                       OQ_SWS_BICUBIC | OQ_SWS_ACCURATE_RND | OQ_SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
  if (!S->sws) rt_error(loc, "vidreadframe: libswscale cannot convert the frames of '%s' to RGB", S->path);
  int stride = (w * 3 + 63) & ~63;
  size_t need = (size_t)stride * (size_t)h + 64;
  if (need > S->bufsize) {
    free(S->buf);
    S->buf = malloc(need);
    S->bufsize = S->buf ? need : 0;
    if (!S->buf) rt_error(loc, "vidreadframe: out of memory");
  }
  uint8_t *dst[4] = {S->buf, NULL, NULL, NULL};
  int dstride[4] = {stride, 0, 0, 0};
  av->sws_scale(S->sws, (const uint8_t *const *)&F(uint8_t *, S->frame, OQ_AVFRAME_DATA),
                &F(int, S->frame, OQ_AVFRAME_LINESIZE), 0, h, dst, dstride);
  int64_t dims[3] = {h, w, 3};
  Array *a = S->rgb;
  if (!a || a->refcount != 1 || a->device || a->dims[0] != h || a->dims[1] != w || a->elem != el_scalar()) {
    if (a) val_release(v_array(a));
    a = S->rgb = arr_new_uninit(el_scalar(), 3, dims);
  }
  for (int y = 0; y < h; y++) {
    const uint8_t *row = S->buf + (size_t)y * stride;
    if (a->elem == EL_F32) {
      float *out = (float *)a->data + (size_t)y * w * 3;
      for (int i = 0; i < w * 3; i++) out[i] = row[i];
    } else {
      double *out = (double *)a->data + (size_t)y * w * 3;
      for (int i = 0; i < w * 3; i++) out[i] = row[i];
    }
  }
  av->frame_unref(S->frame);
}

static VidStream *stream_arg(const Value *v, const char *fname, SrcLoc loc) {
  if (v->kind != V_HANDLE || v->h->cls != &vidstream_class)
    rt_error(loc, "%s: expected a video stream from vidopen, not %s", fname, rt_kind_name(*v));
  VidStream *S = (VidStream *)v->h;
  if (S->closed) rt_error(loc, "%s: the stream of '%s' is closed", fname, S->path);
  return S;
}

static Value vid_readframe(VidStream *S, SrcLoc loc) {
  if (S->ended) return v_bool(false);
  if (!decode_next(S, loc)) {
    S->ended = true;
    return v_bool(false);
  }
  frame_to_rgb(S, loc);
  S->frames++;
  return v_bool(true);
}

/* The next vidreadframe gives the first frame at or after t seconds. */
static void vid_seek(VidStream *S, double t, SrcLoc loc) {
  if (!(t >= 0) || !isfinite(t)) rt_error(loc, "vidseek: the time must be a number of seconds >= 0, not %g", t);
  double units = t / q2d(S->tb);
  if (!(fabs(units) < 9e18)) rt_error(loc, "vidseek: %g s is out of range", t);
  int64_t ts = llround(units) + S->start;
  char eb[128];
  int r = S->av.seek_frame(S->fc, S->idx, ts, OQ_AVSEEK_FLAG_BACKWARD);
  if (r < 0) rt_error(loc, "vidseek: cannot seek '%s' to %g s: %s", S->path, t, av_err(&S->av, r, eb, sizeof eb));
  S->av.flush_buffers(S->dec);
  S->seek_to = ts;
  S->draining = S->ended = false;
  S->frames = 0;
}

static double stream_rate(VidStream *S) {
  OqAvRational q = F(OqAvRational, S->st, OQ_AVST_AVG_FRAME_RATE);
  if (q.num <= 0 || q.den <= 0) q = S->av.guess_frame_rate(S->fc, S->st, NULL);
  return q.num > 0 && q.den > 0 ? q2d(q) : 0;
}

static double stream_duration(VidStream *S) {
  int64_t d = F(int64_t, S->st, OQ_AVST_DURATION);
  if (d != OQ_AV_NOPTS_VALUE && d > 0) return (double)d * q2d(S->tb);
  int64_t fd = F(int64_t, S->fc, OQ_AVFMT_DURATION);   /* in AV_TIME_BASE (microseconds) */
  return fd != OQ_AV_NOPTS_VALUE && fd > 0 ? fd / 1e6 : 0;
}

static Value stream_field(Handle *h, const char *name, SrcLoc loc) {
  VidStream *S = (VidStream *)h;
  if (!strcmp(name, "rgb_data")) {
    if (!S->rgb) rt_error(loc, "stream.rgb_data: no frame has been read from '%s' yet (call vidreadframe first)", S->path);
    val_retain(v_array(S->rgb));
    return v_array(S->rgb);
  }
  if (S->closed && strcmp(name, "frame_index") && strcmp(name, "time") && strcmp(name, "pts"))
    rt_error(loc, "stream.%s: the stream of '%s' is closed", name, S->path);
  void *par = S->closed ? NULL : F(void *, S->st, OQ_AVST_CODECPAR);
  /* frame_width, frame_height, duration_sec, pts: the names published programs use */
  if (!strcmp(name, "avg_frame_rate")) return v_scalar(stream_rate(S));
  if (!strcmp(name, "width") || !strcmp(name, "frame_width")) return v_int(F(int, par, OQ_AVPAR_WIDTH));
  if (!strcmp(name, "height") || !strcmp(name, "frame_height")) return v_int(F(int, par, OQ_AVPAR_HEIGHT));
  if (!strcmp(name, "duration") || !strcmp(name, "duration_sec")) return v_scalar(stream_duration(S));
  if (!strcmp(name, "time") || !strcmp(name, "pts")) return v_scalar(S->time);
  if (!strcmp(name, "frame_index")) return v_int(S->frames - 1);
  rt_error(loc, "a video stream has no field '%s' (rgb_data, avg_frame_rate, width, height, duration, time, "
           "frame_index; frame_width, frame_height, duration_sec, pts)", name);
}

/* ---- writing ---- */

typedef struct VidWriter {
  Handle h;
  Av av;
  char *path;
  void *oc;            /* AVFormatContext of the output */
  const void *codec;   /* AVCodec */
  void *enc, *st, *frame, *pkt, *sws;
  OqAvRational rate;   /* frames per second */
  int fw, fh;          /* the frame size; 0 until the first frame */
  int pix_fmt;         /* the encoder's */
  int64_t next_pts;
  bool closed;
  uint8_t *rgb;        /* one frame in RGB24 */
} VidWriter;

/* The writers not closed yet, finished by rt_video_finish at the end of the program (whose
   frames are not released then, so a writer's last reference never goes). One list per
   process. */
static struct { VidWriter **v; int n, cap; } writers;

static void writers_add(VidWriter *W) {
  if (writers.n == writers.cap) {
    writers.cap = writers.cap ? 2 * writers.cap : 8;
    writers.v = realloc(writers.v, writers.cap * sizeof *writers.v);
  }
  writers.v[writers.n++] = W;
}

static void writers_remove(VidWriter *W) {
  for (int i = 0; i < writers.n; i++)
    if (writers.v[i] == W) {
      writers.v[i] = writers.v[--writers.n];
      return;
    }
}

static void writer_free_av(VidWriter *W) {
  writers_remove(W);
  Av *av = &W->av;
  if (W->sws) av->sws_free(W->sws);
  if (W->frame) av->frame_free(&W->frame);
  if (W->pkt) av->packet_free(&W->pkt);
  if (W->enc) av->free_codec_context(&W->enc);
  if (W->oc) {
    if (!(F(int, F(void *, W->oc, OQ_AVFMT_OFORMAT), OQ_AVOFMT_FLAGS) & OQ_AVFMT_NOFILE))
      av->avio_closep(&F(void *, W->oc, OQ_AVFMT_PB));
    av->free_format_context(W->oc);
  }
  W->oc = W->sws = NULL;
  free(W->rgb);
  W->rgb = NULL;
  W->closed = true;
}

/* Sends frame (NULL: the end) to the encoder and writes the packets it gives. */
static int writer_encode(VidWriter *W, void *frame) {
  Av *av = &W->av;
  int r = av->send_frame(W->enc, frame);
  while (r >= 0) {
    r = av->receive_packet(W->enc, W->pkt);
    if (r == OQ_AVERROR_EAGAIN || r == OQ_AVERROR_EOF) return 0;
    if (r < 0) break;
    av->packet_rescale_ts(W->pkt, (OqAvRational){W->rate.den, W->rate.num}, F(OqAvRational, W->st, OQ_AVST_TIME_BASE));
    r = av->interleaved_write_frame(W->oc, W->pkt);   /* takes the packet's data */
  }
  return r;
}

/* Finishes the file: the encoder's last packets, the trailer; a file without frames is
   removed. report: errors are reported (vidclose), else ignored (the end of the program). */
static void writer_finish(VidWriter *W, SrcLoc loc, bool report) {
  char eb[128];
  int r = W->enc ? writer_encode(W, NULL) : 0;
  if (r >= 0 && W->enc) r = W->av.write_trailer(W->oc);
  char *path = strdup(W->path);
  bool had_frames = W->enc != NULL;
  writer_free_av(W);
  if (!had_frames) unlink(path);   /* no file without frames */
  if (report && r < 0) rt_error(loc, "vidclose: cannot finish '%s': %s", path, av_err(&W->av, r, eb, sizeof eb));
  if (report && !had_frames) rt_error(loc, "vidclose: no frame was written to '%s' (the file is removed)", path);
  free(path);
}

void rt_video_finish(void) {
  while (writers.n) {
    writer_finish(writers.v[writers.n - 1], (SrcLoc){0}, false);
  }
  free(writers.v);
  writers.v = NULL;
  writers.cap = 0;
}

static void writer_destroy(Handle *h) {
  VidWriter *W = (VidWriter *)h;
  if (!W->closed) writer_finish(W, (SrcLoc){0}, false);
  free(W->path);
  free(W);
}

static Value writer_field(Handle *h, const char *name, SrcLoc loc) {
  VidWriter *W = (VidWriter *)h;
  if (!strcmp(name, "avg_frame_rate")) return v_scalar(q2d(W->rate));
  if (!strcmp(name, "width")) return v_int(W->fw);
  if (!strcmp(name, "height")) return v_int(W->fh);
  if (!strcmp(name, "frame_count")) return v_int(W->next_pts);
  rt_error(loc, "a video writer has no field '%s' (avg_frame_rate, width, height, frame_count)", name);
}

static const HandleClass vidwriter_class = {"vidwriter", writer_field, writer_destroy};

static Value vid_open_write(const char *path, double fps, const char *codec_name, SrcLoc loc) {
  if (!(fps > 0) || !isfinite(fps)) rt_error(loc, "vidopen: the frame rate must be > 0, not %g", fps);
  VidWriter *W = calloc(1, sizeof *W);
  W->h.refcount = 1;
  W->h.cls = &vidwriter_class;
  W->path = strdup(path);
  Av *av = &W->av;
  av_load(av, "vidopen", loc);
  char eb[128];
  int r = av->alloc_output_context2(&W->oc, NULL, NULL, path);
  if (r < 0 || !W->oc) rt_error(loc, "vidopen: cannot write '%s': no container format for its extension", path);
  const void *ofmt = F(void *, W->oc, OQ_AVFMT_OFORMAT);
  W->codec = codec_name[0] ? av->find_encoder_by_name(codec_name)
                           : av->find_encoder(av->guess_codec(ofmt, NULL, path, NULL, OQ_AVMEDIA_TYPE_VIDEO));
  if (!W->codec)
    rt_error(loc, "vidopen: libavcodec has no encoder %s%s%s for '%s'", codec_name[0] ? "'" : "", codec_name,
             codec_name[0] ? "'" : "", path);
  W->rate = av->d2q(fps, 1000000);
  if (!(F(int, ofmt, OQ_AVOFMT_FLAGS) & OQ_AVFMT_NOFILE)) {
    r = av->avio_open(&F(void *, W->oc, OQ_AVFMT_PB), path, OQ_AVIO_FLAG_WRITE);
    if (r < 0) rt_error(loc, "vidopen: cannot open '%s' for writing: %s", path, av_err(av, r, eb, sizeof eb));
  }
  W->pkt = av->packet_alloc();
  writers_add(W);
  return v_handle(&W->h);
}

/* The encoder for w x h frames: the first pixel format it accepts of RGB24 (rawvideo),
   BGR0 and GBRP (lossless RGB: ffv1, png), YUV420P and YUV444P (lossy codecs). */
static int open_encoder(VidWriter *W, int w, int h) {
  static const int fmts[] = {OQ_AV_PIX_FMT_BGR24, OQ_AV_PIX_FMT_BGR0, OQ_AV_PIX_FMT_GBRP, OQ_AV_PIX_FMT_RGB24, OQ_AV_PIX_FMT_YUV420P,
                             OQ_AV_PIX_FMT_YUV444P};
  Av *av = &W->av;
  OqAvRational tb = {W->rate.den, W->rate.num};
  bool global = F(int, F(void *, W->oc, OQ_AVFMT_OFORMAT), OQ_AVOFMT_FLAGS) & OQ_AVFMT_GLOBALHEADER;
  int r = -22;
  for (size_t i = 0; i < sizeof fmts / sizeof *fmts; i++) {
    W->enc = av->alloc_context3(W->codec);
    if (!W->enc) return -12;
    av->opt_set_image_size(W->enc, "video_size", w, h, 0);
    av->opt_set_pixel_fmt(W->enc, "pixel_format", fmts[i], 0);
    av->opt_set_q(W->enc, "time_base", tb, 0);
    if (global) av->opt_set(W->enc, "flags", "+global_header", 0);
    av->opt_set(W->enc, "threads", "auto", 0);
    r = av->open2(W->enc, W->codec, NULL);
    if (r >= 0) {
      W->pix_fmt = fmts[i];
      return r;
    }
    av->free_codec_context(&W->enc);
  }
  return r;
}

/* At the first frame: the encoder, the stream, the header, the frame buffer. */
static void writer_start(VidWriter *W, int w, int h, SrcLoc loc) {
  Av *av = &W->av;
  char eb[128];
  int r = open_encoder(W, w, h);
  if (r < 0) rt_error(loc, "vidwrite: cannot encode %d x %d frames into '%s': %s", h, w, W->path, av_err(av, r, eb, sizeof eb));
  W->st = av->new_stream(W->oc, NULL);
  if (!W->st) rt_error(loc, "vidwrite: out of memory");
  F(OqAvRational, W->st, OQ_AVST_TIME_BASE) = (OqAvRational){W->rate.den, W->rate.num};
  F(OqAvRational, W->st, OQ_AVST_AVG_FRAME_RATE) = W->rate;
  r = av->parameters_from_context(F(void *, W->st, OQ_AVST_CODECPAR), W->enc);
  if (r >= 0) r = av->write_header(W->oc, NULL);
  if (r < 0) rt_error(loc, "vidwrite: cannot start '%s': %s", W->path, av_err(av, r, eb, sizeof eb));
  W->frame = av->frame_alloc();
  if (!W->frame) rt_error(loc, "vidwrite: out of memory");
  F(int, W->frame, OQ_AVFRAME_WIDTH) = w;
  F(int, W->frame, OQ_AVFRAME_HEIGHT) = h;
  F(int, W->frame, OQ_AVFRAME_FORMAT) = W->pix_fmt;
  r = av->frame_get_buffer(W->frame, 0);
  W->sws = av->sws_get(NULL, w, h, OQ_AV_PIX_FMT_RGB24, w, h, W->pix_fmt,
                       OQ_SWS_BICUBIC | OQ_SWS_ACCURATE_RND | OQ_SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
  W->rgb = malloc((size_t)w * h * 3 + 64);
  if (r < 0 || !W->sws || !W->rgb) rt_error(loc, "vidwrite: cannot prepare the frames of '%s'", W->path);
  W->fw = w, W->fh = h;
}

/* A frame value: a matrix (gray) or a cube of 1, 3 or 4 channels (alpha is dropped). */
static void frame_dims(const Value *v, int64_t *h, int64_t *w, int64_t *ch, SrcLoc loc) {
  if (v->kind != V_ARRAY || v->arr->rank < 2 || v->arr->rank > 3)
    rt_error(loc, "vidwrite: a frame is a matrix (gray) or a cube h x w x 3, not %s", rt_kind_name(*v));
  const Array *a = v->arr;
  *h = a->dims[0], *w = a->dims[1], *ch = a->rank == 3 ? a->dims[2] : 1;
  if (el_is_complex(a->elem)) rt_error(loc, "vidwrite: a frame cannot be complex");
  if (*ch != 1 && *ch != 3 && *ch != 4) rt_error(loc, "vidwrite: a frame has 1, 3 or 4 channels, not %lld", (long long)*ch);
  if (*h < 1 || *w < 1 || *h > 16384 || *w > 16384)
    rt_error(loc, "vidwrite: a frame of %lld x %lld is not supported (1..16384 each)", (long long)*h, (long long)*w);
}

static inline uint8_t to_byte(double x) { return !(x > 0) ? 0 : x >= 255 ? 255 : (uint8_t)(x + 0.5); }

/* n pixels of ch channels to RGB24, rounded half up and clamped as imwrite does; gray is
   repeated, alpha dropped. Scalar arrays are read directly (the common case, per frame). */
static void frame_bytes(const Array *a, int64_t n, int64_t ch, uint8_t *rgb) {
  int64_t step[3] = {0, ch >= 3 ? 1 : 0, ch >= 3 ? 2 : 0};
  if (a->elem == EL_F32) {
    const float *d = a->data;
    for (int64_t p = 0; p < n; p++)
      for (int c = 0; c < 3; c++) rgb[p * 3 + c] = to_byte(d[p * ch + step[c]]);
  } else if (a->elem == EL_F64) {
    const double *d = a->data;
    for (int64_t p = 0; p < n; p++)
      for (int c = 0; c < 3; c++) rgb[p * 3 + c] = to_byte(d[p * ch + step[c]]);
  } else {
    for (int64_t p = 0; p < n; p++)
      for (int c = 0; c < 3; c++) rgb[p * 3 + c] = to_byte(arr_load(a, p * ch + step[c]));
  }
}

static void vid_write(VidWriter *W, const Value *img, SrcLoc loc) {
  int64_t h, w, ch;
  frame_dims(img, &h, &w, &ch, loc);
  if (!W->fw) writer_start(W, (int)w, (int)h, loc);
  if (h != W->fh || w != W->fw)
    rt_error(loc, "vidwrite: the frame is %lld x %lld but '%s' has frames of %d x %d", (long long)h, (long long)w,
             W->path, W->fh, W->fw);
  frame_bytes(img->arr, h * w, ch, W->rgb);
  Av *av = &W->av;
  char eb[128];
  int r = av->frame_make_writable(W->frame);
  if (r < 0) rt_error(loc, "vidwrite: out of memory");
  const uint8_t *src[4] = {W->rgb, NULL, NULL, NULL};
  int sstride[4] = {(int)w * 3, 0, 0, 0};
  av->sws_scale(W->sws, src, sstride, 0, (int)h, &F(uint8_t *, W->frame, OQ_AVFRAME_DATA),
                &F(int, W->frame, OQ_AVFRAME_LINESIZE));
  F(int64_t, W->frame, OQ_AVFRAME_PTS) = W->next_pts++;
  r = writer_encode(W, W->frame);
  if (r < 0) rt_error(loc, "vidwrite: cannot write a frame to '%s': %s", W->path, av_err(av, r, eb, sizeof eb));
}

static VidWriter *writer_arg(const Value *v, SrcLoc loc) {
  if (v->kind != V_HANDLE || v->h->cls != &vidwriter_class)
    rt_error(loc, "vidwrite: expected a video writer from vidopen(file, \"w\", ...), not %s", rt_kind_name(*v));
  VidWriter *W = (VidWriter *)v->h;
  if (W->closed) rt_error(loc, "vidwrite: '%s' is closed", W->path);
  return W;
}

/* ---- the built-ins ---- */

static const char *string_arg(const Value *v, const char *fname, const char *what, SrcLoc loc) {
  if (v->kind != V_STRING) rt_error(loc, "%s: %s must be a string, not %s", fname, what, rt_kind_name(*v));
  return v->str->s;
}

/* vidopen(file) reads; vidopen(file, "w", fps = 25, codec = "") writes. */
static Value bi_vidopen(int argc, const Value *argv, SrcLoc loc) {
  const char *path = string_arg(&argv[0], "vidopen", "the file name", loc);
  const char *mode = argc > 1 ? string_arg(&argv[1], "vidopen", "the mode", loc) : "r";
  if (!strcmp(mode, "r")) {
    if (argc > 2) rt_error(loc, "vidopen: a stream opened for reading takes no frame rate or codec");
    return vid_open_read(path, loc);
  }
  if (strcmp(mode, "w")) rt_error(loc, "vidopen: the mode is \"r\" or \"w\", not \"%s\"", mode);
  double fps = argc > 2 ? rt_to_real(argv[2], loc) : 25;
  const char *codec = argc > 3 ? string_arg(&argv[3], "vidopen", "the codec", loc) : "";
  return vid_open_write(path, fps, codec, loc);
}

static Value bi_vidreadframe(int argc, const Value *argv, SrcLoc loc) {
  (void)argc;
  return vid_readframe(stream_arg(&argv[0], "vidreadframe", loc), loc);
}

static Value bi_vidseek(int argc, const Value *argv, SrcLoc loc) {
  (void)argc;
  VidStream *S = stream_arg(&argv[0], "vidseek", loc);
  vid_seek(S, rt_to_real(argv[1], loc), loc);
  return v_none();
}

static Value bi_vidwrite(int argc, const Value *argv, SrcLoc loc) {
  (void)argc;
  vid_write(writer_arg(&argv[0], loc), &argv[1], loc);
  return v_none();
}

/* vidclose of a reader frees it; of a writer finishes the file. A second vidclose does nothing. */
static Value bi_vidclose(int argc, const Value *argv, SrcLoc loc) {
  (void)argc;
  const Value *v = &argv[0];
  if (v->kind == V_HANDLE && v->h->cls == &vidstream_class) {
    VidStream *S = (VidStream *)v->h;
    if (!S->closed) stream_free_av(S);
  } else if (v->kind == V_HANDLE && v->h->cls == &vidwriter_class) {
    VidWriter *W = (VidWriter *)v->h;
    if (!W->closed) writer_finish(W, loc, true);
  } else {
    rt_error(loc, "vidclose: expected a video stream from vidopen, not %s", rt_kind_name(*v));
  }
  return v_none();
}

static Value bi_exrread(int argc, const Value *argv, SrcLoc loc) {
  (void)argc;
  return rt_exrread(string_arg(&argv[0], "exrread", "the file name", loc), loc);
}

static Value bi_exrwrite(int argc, const Value *argv, SrcLoc loc) {
  (void)argc;
  const char *path = string_arg(&argv[0], "exrwrite", "the file name", loc);
  if (argv[1].kind != V_ARRAY) rt_error(loc, "exrwrite: expected an image (a mat or cube), not %s", rt_kind_name(argv[1]));
  rt_exrwrite(path, argv[1].arr, loc);
  return v_none();
}

static const Builtin media_builtins[] = {
  {"vidopen", bi_vidopen, 1, 4}, {"vidreadframe", bi_vidreadframe, 1, 1}, {"vidseek", bi_vidseek, 2, 2},
  {"vidwrite", bi_vidwrite, 2, 2}, {"vidclose", bi_vidclose, 1, 1},
  {"exrread", bi_exrread, 1, 1}, {"exrwrite", bi_exrwrite, 2, 2},
};

const Builtin *rt_media_lookup(const char *name) {
  for (size_t k = 0; k < sizeof media_builtins / sizeof *media_builtins; k++)
    if (!strcmp(media_builtins[k].name, name)) return &media_builtins[k];
  return NULL;
}
