const express = require('express');
const router = express.Router();

function listUsers(req, res) {
  res.json([]);
}

router.get('/', listUsers);
router.post('/:id/pause', function pause(req, res) { res.sendStatus(204); });

module.exports = router;
