// The sounds of the cards and of a win, made here with the Web Audio API (the project ships
// no sound files).  None plays before the player's first gesture on the page (the audio is
// only set up then), nor while the player's settings turn them off.

import { app } from "./state.js";

let audio = null; // the AudioContext, made at the player's first gesture

// The player's first gesture: the audio may start from now on.
export function wakeSound() {
  if (audio) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    audio = new Context();
  } catch {
    audio = null;
  }
}

// A short burst of filtered noise: a card laid down (higher, shorter) or slid.
function snap(ctx, at, { pitch = 2400, length = 0.07, volume = 0.32 } = {}) {
  const frames = Math.max(1, Math.round(ctx.sampleRate * length));
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = pitch;
  filter.Q.value = 0.9;
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(volume, at);
  gain.gain.exponentialRampToValueAtTime(0.001, at + length);
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(at);
}

// A plain tone with a soft attack and a decay.
function tone(ctx, at, frequency, { length = 0.25, volume = 0.16, type = "triangle" } = {}) {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.value = frequency;
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.015);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

const SOUNDS = {
  card: (ctx, at) => snap(ctx, at),
  deal: (ctx, at) => { for (let k = 0; k < 3; k += 1) snap(ctx, at + k * 0.055, { pitch: 2000 + k * 300, volume: 0.24 }); },
  redeal: (ctx, at) => { for (let k = 0; k < 6; k += 1) snap(ctx, at + k * 0.03, { pitch: 1500, length: 0.05, volume: 0.18 }); },
  refused: (ctx, at) => tone(ctx, at, 150, { length: 0.16, volume: 0.14, type: "sine" }),
  // a rising arpeggio and a chord: C5 E5 G5 C6, then C6 E6 G6 together
  win: (ctx, at) => {
    [523.25, 659.25, 783.99, 1046.5].forEach((f, k) => tone(ctx, at + k * 0.11, f));
    for (const f of [1046.5, 1318.5, 1568]) tone(ctx, at + 0.48, f, { length: 0.9, volume: 0.09 });
  },
};

export function playSound(name) {
  if (!audio || app.settings.sounds === false || !SOUNDS[name]) return;
  if (audio.state === "suspended") audio.resume().catch(() => {});
  try {
    SOUNDS[name](audio, audio.currentTime + 0.01);
  } catch {
    // a sound is never worth an error
  }
}
