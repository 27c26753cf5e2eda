/* anim.h — recording a run as it goes: an animated GIF and/or one PNG per kept step. */
#ifndef SMALTI_ANIM_H
#define SMALTI_ANIM_H
#include "../io/output.h"

/* Frame delays of the GIF, in hundredths of a second. */
#define ANIM_DEFAULT_DELAY 5
#define ANIM_FINAL_HOLD 200 /* the last frame shows at least this long before the loop restarts */

typedef struct anim_options {
    const char *gif_path;   /* NULL: no GIF */
    const char *frames_dir; /* NULL: no PNG frames; else DIR/<step>.png */
    long every;             /* keep the steps that are multiples of it, the start and the last step */
    int pixel_size;         /* pixels per cell in 2-D, cube size of the isometric picture in 3-D */
    int delay_cs;           /* GIF delay between frames */
    long step_limit;        /* the run's limit (<= 0: none), which tells its last step */
    const palette *pal;
    const temp_hook *temps; /* told of the temporary files (io/output.h); may be NULL */
} anim_options;

typedef struct anim_recorder anim_recorder;

/* Record the run's current grid as frame 0 (step 0). NULL and err on failure
   (such as a frames folder that cannot be made). */
anim_recorder *anim_start(const anim_options *opt, const smalti_run *run, smalti_error *err);
/* The smalti_observer_fn to register (through the CLI's fan-out) with the recorder as userdata. */
void anim_observe(void *recorder, const smalti_step_event *event);
/* Record the final grid if the last step was not seen, rename the GIF into
   place and free the recorder. False and err on the first failure of the run. */
bool anim_finish(anim_recorder *a, smalti_error *err);
/* Drop the GIF (no file is left; PNG frames written so far stay) and free the recorder. */
void anim_abort(anim_recorder *a);
long anim_frame_count(const anim_recorder *a);
#endif
