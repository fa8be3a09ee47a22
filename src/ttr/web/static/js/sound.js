// Sounds made on the spot with WebAudio (no sound files): a rising pair of notes when your turn comes, a
// short chord for a claim, a falling arpeggio at the end. The "Sounds" switch turns them off (remembered).
const KEY = "ttr.sound";
let ctx = null;

export function soundOn() {
  return localStorage.getItem(KEY) !== "0";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "1" : "0");
  if (on) unlock();
}

/** Browsers let a page make sound only after a gesture: make the audio context on the first one. */
export function unlock() {
  if (ctx || typeof AudioContext === "undefined") return;
  try {
    ctx = new AudioContext();
  } catch {
    ctx = null;
  }
}

const TUNES = {
  turn: [[660, 0, 0.12], [880, 0.13, 0.16]],
  claim: [[523, 0, 0.18], [659, 0, 0.18], [784, 0, 0.18]],
  end: [[784, 0, 0.18], [659, 0.18, 0.18], [523, 0.36, 0.18], [392, 0.54, 0.4]],
  final_round: [[440, 0, 0.2], [440, 0.25, 0.2]],
};

/** Play one of the page's sounds (`turn`, `claim`, `end`, `final_round`), if sounds are on. The body's
 * `data-sounds` lists the last ones asked for (what a test can see of a sound). */
export function play(name) {
  if (!soundOn() || !TUNES[name]) return;
  document.body.dataset.sounds = [...(document.body.dataset.sounds || "").split(" ").filter(Boolean), name].slice(-12).join(" ");
  if (!ctx || ctx.state === "closed") return;
  const now = ctx.currentTime;
  for (const [freq, start, length] of TUNES[name]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(0.15, now + start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.05);
  }
}

for (const kind of ["pointerdown", "keydown"]) window.addEventListener(kind, () => { if (soundOn()) unlock(); }, { once: true, capture: true });
