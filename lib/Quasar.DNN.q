% Quasar.DNN.q: Quasar's native neural-network module: OpenQuasar provides none of it yet; a
%   call of one of its functions is an unknown-function error.
% import "Quasar.DNN.dll" loads this file from OpenQuasar's lib/ folder; it defines nothing.
