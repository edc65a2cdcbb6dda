% imboundary.q: Quasar's boundary handling module: the boundary modifiers 'safe, 'circular,
%   'mirror, 'clamped, 'checked and 'unchecked are built into OpenQuasar (docs/language.md).
% import "imboundary.q" finds this file in OpenQuasar's lib/ folder, so published programs
%   that
% import it run unchanged; it defines nothing of its own yet.
