// A frontend's view of Orrery: create a match against an AI seat, follow it through WatchMatch, move
// when it is our turn (asking SuggestMove for a hint), and print the result.
//
//   npm ci && node play.js localhost:50051 [game] [players]
//
// The server plays the AI seats itself; this client never drives them. It needs the .proto file
// (proto/orrery/v1/orrery.proto in the repository, or set ORRERY_PROTO).
'use strict';
const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const target = process.argv[2] || 'localhost:50051';
const game = process.argv[3] || 'kuhn';
const players = Number(process.argv[4] || 2);
const protoFile = process.env.ORRERY_PROTO || path.join(__dirname, '..', '..', 'proto', 'orrery', 'v1', 'orrery.proto');

const definition = protoLoader.loadSync(protoFile, { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
const orrery = grpc.loadPackageDefinition(definition).orrery.v1;
const client = new orrery.Orrery(target, grpc.credentials.createInsecure());

function unary(method, request, metadata = new grpc.Metadata()) {
  return new Promise((resolve, reject) =>
    client[method](request, metadata, { deadline: Date.now() + 30000 }, (err, response) => (err ? reject(err) : resolve(response))));
}

async function main() {
  const seats = [{ human: {} }];
  for (let s = 1; s < players; s += 1) seats.push({ ai: { level: 'LEVEL_EASY', seed: String(s) } });
  const match = await unary('CreateMatch', { game, players, seats, seed: '7' });
  console.log(`match ${match.match_id}: ${match.game} (${match.variant}), seat 0 is mine, ` +
    `AI seats ${match.seat_tokens.filter((t) => t.ai).map((t) => t.seat).join(', ')}`);
  const me = new grpc.Metadata();
  me.add('x-orrery-seat-token', match.seat_tokens[0].token);

  let playing = Promise.resolve();
  let lastMoveSeen = 0;
  const play = async (moveNumber) => {
    const hint = await unary('SuggestMove', { match: { match_id: match.match_id, seat: 0 }, params: { budget: { iterations: '300' }, seed: '1' } }, me);
    if (hint.move_number !== moveNumber) return; // computed for another position: the stream will tell
    const applied = await unary('ApplyAction', { match_id: match.match_id, seat: 0, action_id: hint.action.id, expected_move_number: moveNumber }, me);
    console.log(`move ${applied.move_number}: I play ${hint.action.label}`);
  };

  await new Promise((resolve, reject) => {
    const stream = client.WatchMatch({ match_id: match.match_id, seat: 0, after_move: lastMoveSeen }, me);
    stream.on('data', (event) => {
      if (event.kind === 'MATCH_EVENT_MOVE') {
        lastMoveSeen = event.move_number;
        if (event.by_ai) console.log(`move ${event.move_number}: seat ${event.seat} (AI) plays ${event.action.label}`);
      }
      if (event.kind === 'MATCH_EVENT_END') {
        console.log(`end (${event.status}): scores ${event.scores.join(', ')}; ranks ${event.ranks.join(', ')}`);
        return;
      }
      if (event.current_player === 0) {
        const at = event.kind === 'MATCH_EVENT_SYNC' ? event.move_number : event.move_number;
        playing = playing.then(() => play(at)).catch(reject);
      }
    });
    stream.on('error', reject);
    stream.on('end', () => playing.then(resolve, reject));
  });
  const view = await unary('GetObservation', { match_id: match.match_id, seat: 0 }, me);
  console.log(view.rendered);
  console.log(`game over: ${view.game_over}, my score ${view.scores[0]}`);
  client.close();
}

main().then(() => process.exit(0), (err) => { console.error('error:', err.code, err.details || err.message); process.exit(1); });
