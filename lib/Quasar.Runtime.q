% Quasar.Runtime.q: Quasar's native runtime module: its functions are OpenQuasar's built-ins.
% import "Quasar.Runtime.dll" loads this file from OpenQuasar's lib/ folder; it defines nothing.
