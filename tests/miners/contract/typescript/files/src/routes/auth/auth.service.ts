import bcrypt from 'bcryptjs';

export const createUser = async (password: string) => {
  const hashedPassword = await bcrypt.hash(password, 10);
  const short = password.substring(0, 8);
  const status = res.status(404);
  return hashedPassword + short;
};
